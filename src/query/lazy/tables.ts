/**
 * The tables lazy search reads: text units (required), the community hierarchy with each community's
 * text units, and the graph (noun phrases of the fast index, or entities of a standard one) when present.
 */
import { COMMUNITIES, ENTITIES, RELATIONSHIPS, TEXT_UNITS } from '../../model/index.js'
import { pickColumns, type RowOf } from '../../model/schema.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { requireTable } from '../load-index.js'
import type { LazyCommunity } from './ranking.js'

// Which text units a community holds is what lazy search ranks it by; the shared loader leaves it out.
const LAZY_COMMUNITIES = pickColumns(COMMUNITIES, [
  'community',
  'level',
  'children',
  'title',
  'entity_ids',
  'text_unit_ids',
])

// Without relationship_ids and covariate_ids: on a noun-phrase graph each unit lists thousands of
// relationships, and reading those lists was most of a lazy query's time on a 1 M-token index.
const LAZY_TEXT_UNITS = pickColumns(TEXT_UNITS, [
  'id',
  'human_readable_id',
  'text',
  'n_tokens',
  'document_id',
  'entity_ids',
])

// Only what the concept subgraph needs: descriptions are most of these tables on a standard index.
const LAZY_ENTITIES = pickColumns(ENTITIES, ['id', 'title', 'text_unit_ids'])
const LAZY_RELATIONSHIPS = pickColumns(RELATIONSHIPS, ['source', 'target', 'weight'])

export interface LazyTables {
  text_units: RowOf<typeof LAZY_TEXT_UNITS>[]
  entities: RowOf<typeof LAZY_ENTITIES>[]
  relationships: RowOf<typeof LAZY_RELATIONSHIPS>[]
  communities: LazyCommunity[]
}

export async function loadLazyTables(dataDir: string): Promise<LazyTables> {
  await requireTable(dataDir, 'text_units')
  const store = new ParquetTableStore(dataDir, 'js')
  const read = async <S extends Parameters<ParquetTableStore['read']>[0]>(schema: S) =>
    (await store.has(schema.name)) ? await store.read(schema) : []
  const entities = await read(LAZY_ENTITIES)
  // Indexes from before human_readable_id existed number their units by row, as the shared loader does.
  const units = await read(LAZY_TEXT_UNITS)
  return {
    text_units: units.map((u, i) =>
      (u.human_readable_id as number | null) === null ? { ...u, human_readable_id: i } : u,
    ),
    entities,
    relationships: await read(LAZY_RELATIONSHIPS),
    communities: lazyCommunities(await read(LAZY_COMMUNITIES), entities),
  }
}

type CommunityRow = RowOf<typeof LAZY_COMMUNITIES>

/** Communities with their text units: as stored, or (an index that did not store them) their members' units. */
export function lazyCommunities(
  rows: readonly CommunityRow[],
  entities: ReadonlyArray<{ id: string; text_unit_ids: readonly string[] | null }>,
): LazyCommunity[] {
  const unitsOf = new Map(entities.map((e) => [e.id, e.text_unit_ids ?? []]))
  return rows.map((r) => ({
    community: Number(r.community),
    level: Number(r.level),
    title: r.title,
    children: (r.children ?? []).map(Number),
    unitIds:
      (r.text_unit_ids ?? []).length > 0
        ? [...(r.text_unit_ids ?? [])]
        : [...new Set((r.entity_ids ?? []).flatMap((id) => unitsOf.get(id) ?? []))],
  }))
}
