/**
 * Reads the index tables a search method needs from the output folder (ours or one written by
 * Python GraphRAG: columns are read by name) and fails with the file name when one is missing.
 */
import { join } from 'node:path'
import { MissingIndexError, QueryError } from '../errors.js'
import { COMMUNITIES, COMMUNITY_REPORTS, COVARIATES, ENTITIES, RELATIONSHIPS, TEXT_UNITS } from '../model/index.js'
import { pickColumns, type RowOf } from '../model/schema.js'
import { folderIdentity } from '../storage/generations.js'
import { ParquetTableStore } from '../storage/table-store.js'

/** The columns a community and its report share. */
const COMMUNITY_HEAD = ['id', 'human_readable_id', 'community', 'level', 'parent', 'children', 'title'] as const

const SCHEMAS = {
  entities: ENTITIES,
  // No search reads which text units a relationship came from (text units list their relationships),
  // and decoding those lists is most of what reading the table costs.
  relationships: pickColumns(RELATIONSHIPS, [
    'id',
    'human_readable_id',
    'source',
    'target',
    'description',
    'weight',
    'combined_degree',
  ]),
  // Which relationships and text units a community holds: no search reads them (entity_ids is its
  // membership), and on a large index they are most of the table.
  communities: pickColumns(COMMUNITIES, [...COMMUNITY_HEAD, 'entity_ids']),
  // full_content_json repeats full_content; nothing else of the dropped columns is read by a search.
  community_reports: pickColumns(COMMUNITY_REPORTS, [...COMMUNITY_HEAD, 'summary', 'full_content', 'rank', 'findings']),
  text_units: TEXT_UNITS,
  covariates: COVARIATES,
} as const

export type TableName = keyof typeof SCHEMAS
export type IndexTables = { [K in TableName]: RowOf<(typeof SCHEMAS)[K]>[] }
/** A relationship as searches read it: without its text_unit_ids. */
export type IndexRelationship = IndexTables['relationships'][number]
/** A community as searches read it: its members, without its relationships' and text units' ids. */
export type IndexCommunity = IndexTables['communities'][number]
/** A community report as searches read it (without full_content_json, rating_explanation, period, size). */
export type IndexReport = IndexTables['community_reports'][number]

/** Tables each method reads; covariates are optional (claims are off by default). */
export const TABLES_BY_METHOD = {
  local: ['entities', 'relationships', 'communities', 'community_reports', 'text_units'],
  global: ['entities', 'communities', 'community_reports'],
  drift: ['entities', 'relationships', 'communities', 'community_reports', 'text_units'],
  basic: ['text_units'],
} as const satisfies Record<string, readonly TableName[]>

/**
 * Reads the tables. An index run publishes a new generation by renaming it over the output folder
 * (storage/generations.ts); when that happens while the tables are being read, they are read
 * again, so a search never mixes tables of two generations.
 */
export async function loadTables<K extends TableName>(
  dataDir: string,
  names: readonly K[],
  optional: readonly TableName[] = [],
): Promise<Pick<IndexTables, K> & Partial<IndexTables>> {
  for (let attempt = 1; ; attempt++) {
    const before = await folderIdentity(dataDir)
    const tables = await loadOnce(dataDir, names, optional)
    if ((await folderIdentity(dataDir)) === before || attempt === 3) return tables
  }
}

async function loadOnce<K extends TableName>(
  dataDir: string,
  names: readonly K[],
  optional: readonly TableName[],
): Promise<Pick<IndexTables, K> & Partial<IndexTables>> {
  const store = new ParquetTableStore(dataDir, 'js')
  const out: Partial<IndexTables> = {}
  for (const name of [...names, ...optional]) {
    const required = (names as readonly TableName[]).includes(name)
    if (!(await store.has(name))) {
      if (required) throw await missingTable(store, dataDir, name)
      continue
    }
    const rows = await store.read(SCHEMAS[name])
    ;(out as Record<string, unknown>)[name] =
      name === 'text_units' ? withRowIds(rows as IndexTables['text_units']) : rows
  }
  return out as Pick<IndexTables, K> & Partial<IndexTables>
}

/** Throws what loadTables would when `name` is missing (a search reading its own columns of it checks first). */
export async function requireTable(dataDir: string, name: TableName): Promise<void> {
  const store = new ParquetTableStore(dataDir, 'js')
  if (!(await store.has(name))) throw await missingTable(store, dataDir, name)
}

/** "No index yet" when the folder holds none of the index tables (never indexed), else the one table missing. */
async function missingTable(store: ParquetTableStore, dataDir: string, name: TableName): Promise<MissingIndexError> {
  const fix = 'run `graphrag index` first or point --data at the output folder'
  for (const table of Object.keys(SCHEMAS)) {
    if (await store.has(table)) {
      return new MissingIndexError(`the index has no ${name} table (${join(dataDir, `${name}.parquet`)}); ${fix}`)
    }
  }
  return new MissingIndexError(`no index yet in ${dataDir}: ${fix}`)
}

/** Indexes from before human_readable_id existed: fall back to the row position (as the reference does). */
function withRowIds(units: IndexTables['text_units']): IndexTables['text_units'] {
  return units.map((u, i) => ((u.human_readable_id as number | null) === null ? { ...u, human_readable_id: i } : u))
}

/**
 * Local, global and DRIFT search walk the entity graph and its communities. An index whose graph is
 * empty (extraction found no relationships, so there are no communities) still serves basic and
 * hybrid search; these methods say so instead of answering from nothing.
 */
export function requireGraph(
  method: string,
  tables: { entities: readonly unknown[]; communities: readonly unknown[]; relationships?: readonly unknown[] },
): void {
  const noRelationships = tables.relationships !== undefined && tables.relationships.length === 0
  if (!noRelationships && tables.communities.length > 0) return
  throw new QueryError(
    `the index's graph is empty (${tables.entities.length} entities, ${noRelationships ? 'no relationships' : 'no communities'}), ` +
      `so ${method} search has nothing to search; use --method basic or --method hybrid, which read the text units`,
  )
}
