/**
 * The tables lazy search reads: text units (required), the community hierarchy with each community's
 * text units, and the graph (noun phrases of the fast index, or entities of a standard one) when present.
 */
import { COMMUNITIES } from '../../model/index.js'
import { pickColumns, type RowOf } from '../../model/schema.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { loadTables, type IndexTables } from '../load-index.js'
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

export interface LazyTables {
  text_units: IndexTables['text_units']
  entities: IndexTables['entities']
  relationships: IndexTables['relationships']
  communities: LazyCommunity[]
}

export async function loadLazyTables(dataDir: string): Promise<LazyTables> {
  const tables = await loadTables(dataDir, ['text_units'], ['entities', 'relationships'])
  const store = new ParquetTableStore(dataDir, 'js')
  const rows = (await store.has(COMMUNITIES.name)) ? await store.read(LAZY_COMMUNITIES) : []
  const entities = tables.entities ?? []
  return {
    text_units: tables.text_units,
    entities,
    relationships: tables.relationships ?? [],
    communities: lazyCommunities(rows, entities),
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
