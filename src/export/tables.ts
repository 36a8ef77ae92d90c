/** Reads the index tables an export needs (ours or Python GraphRAG's: columns are read by name). */
import { join } from 'node:path'
import { StorageError } from '../errors.js'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  ENTITIES,
  RELATIONSHIPS,
  type CommunityReportRow,
  type CommunityRow,
  type EntityRow,
  type RelationshipRow,
} from '../model/index.js'
import { ParquetTableStore } from '../storage/index.js'

export interface ExportTables {
  entities: EntityRow[]
  relationships: RelationshipRow[]
  /** Empty when the index has no communities table (clustering not run). */
  communities: CommunityRow[]
  /** Empty when the index has no reports. */
  reports: CommunityReportRow[]
}

export async function loadExportTables(dataDir: string): Promise<ExportTables> {
  const store = new ParquetTableStore(dataDir)
  for (const schema of [ENTITIES, RELATIONSHIPS]) {
    if (!(await store.has(schema.name))) {
      throw new StorageError(
        `the index has no ${schema.name} table (${join(dataDir, `${schema.name}.parquet`)}); run \`graphrag index\` first or point --data at the output folder`,
        {
          path: join(dataDir, `${schema.name}.parquet`),
        },
      )
    }
  }
  return {
    entities: await store.read(ENTITIES),
    relationships: await store.read(RELATIONSHIPS),
    communities: (await store.has(COMMUNITIES.name)) ? await store.read(COMMUNITIES) : [],
    reports: (await store.has(COMMUNITY_REPORTS.name)) ? await store.read(COMMUNITY_REPORTS) : [],
  }
}
