/**
 * The seed design's ingest figures, from the index before and after a job: chunks (text units, whose
 * ids are content hashes) new and kept, entities and relationships created. The design counts what its
 * ingest wrote; here the published index is compared, so a rebuilt chunk that came out the same counts
 * as kept (`chunks_skipped`), as the design's hash skip would have kept it.
 */
import type { Settings } from '../config/index.js'
import { ENTITIES, pickColumns, RELATIONSHIPS, TEXT_UNITS } from '../model/index.js'
import { readableIndexDir } from '../storage/generations.js'
import { ParquetTableStore } from '../storage/index.js'

const UNIT_IDS = pickColumns(TEXT_UNITS, ['id'])
const ENTITY_TITLES = pickColumns(ENTITIES, ['title'])
const RELATIONSHIP_ENDS = pickColumns(RELATIONSHIPS, ['source', 'target'])

export interface IndexContents {
  units: ReadonlySet<string>
  entities: ReadonlySet<string>
  relationships: ReadonlySet<string>
}

/** What the published index holds now (empty sets for tables it lacks, or when there is no index). */
export async function indexContents(settings: Settings): Promise<IndexContents> {
  const store = new ParquetTableStore(await readableIndexDir(settings.output_storage.base_dir))
  const ids = async <T>(name: string, read: () => Promise<T[]>, key: (row: T) => string) =>
    new Set((await store.has(name)) ? (await read()).map(key) : [])
  return {
    units: await ids(
      'text_units',
      () => store.read(UNIT_IDS),
      (r) => r.id,
    ),
    entities: await ids(
      'entities',
      () => store.read(ENTITY_TITLES),
      (r) => r.title,
    ),
    relationships: await ids(
      'relationships',
      () => store.read(RELATIONSHIP_ENDS),
      (r) => `${r.source}\u0000${r.target}`,
    ),
  }
}

const added = (before: ReadonlySet<string>, after: ReadonlySet<string>) =>
  [...after].filter((x) => !before.has(x)).length

export function ingestFigures(before: IndexContents, after: IndexContents): Record<string, number> {
  const chunksNew = added(before.units, after.units)
  return {
    chunks_total: after.units.size,
    chunks_new: chunksNew,
    chunks_skipped: after.units.size - chunksNew,
    entities_created: added(before.entities, after.entities),
    relations_created: added(before.relationships, after.relationships),
  }
}
