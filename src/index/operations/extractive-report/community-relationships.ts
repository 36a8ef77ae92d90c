/**
 * The strongest relationships of each community for the offline writer, read as columns: a dense
 * corpus has millions of relationships and the writer quotes eight a community. The relationships'
 * numbers and ends are read as codes, each community's strongest picked on them, and only the rows
 * picked read their text-unit ids (the largest column: every relationship lists its 128-character
 * unit ids, tens of millions of strings at 30 MB) and become rows.
 */
import type { CommunityRow } from '../../../model/communities.js'
import { RELATIONSHIPS } from '../../../model/relationships.js'
import { pickColumns } from '../../../model/schema.js'
import { columnOf, type TableColumns } from '../../../storage/table-columns.js'
import { readColumns, type TableStore } from '../../../storage/table-store.js'
import { bestOf } from './best-of.js'
import type { CommunityRelationships, ReportedRelationship } from './writer.js'

const RANKED = pickColumns(RELATIONSHIPS, ['id', 'source', 'target', 'weight', 'combined_degree'])
const UNIT_IDS = pickColumns(RELATIONSHIPS, ['text_unit_ids'])

/** Each community's `count` strongest relationships (the writer's `stronger` order) and how many it lists. */
export async function strongestRelationships(
  store: TableStore,
  communities: readonly Pick<CommunityRow, 'relationship_ids'>[],
  count: number,
): Promise<CommunityRelationships> {
  const table = await readColumns(store, RANKED)
  const rowOf = rowsById(table)
  const order = columnOrder(table)
  const picked = communities.map((c) =>
    bestOf(
      c.relationship_ids.flatMap((id) => rowOf.get(id) ?? []),
      count,
      order,
    ),
  )
  const unitsOf = await unitIdsOf(store, new Set(picked.flat()))
  const [source, target] = [columnOf(table, 'source', 'string').codes, columnOf(table, 'target', 'string').codes]
  const [weight, degree] = [numbers(table, 'weight'), numbers(table, 'combined_degree')]
  const rowAt = (i: number): ReportedRelationship => ({
    source: table.values[source[i]!]!,
    target: table.values[target[i]!]!,
    weight: weight[i]!,
    combined_degree: degree[i]!,
    text_unit_ids: unitsOf.get(i)!,
  })
  const rows = picked.map((list) => list.map(rowAt))
  return {
    count: (position) => communities[position]!.relationship_ids.length,
    strongest: (position, wantedCount) => {
      if (wantedCount > count) throw new RangeError(`${wantedCount} relationships asked for, ${count} picked`)
      return rows[position]!.slice(0, wantedCount)
    },
  }
}

/**
 * The text-unit ids of the rows `wanted`, by row: a column read that codes only the rows it keeps (a
 * row read would decode every row's list before dropping it).
 */
async function unitIdsOf(store: TableStore, wanted: ReadonlySet<number>): Promise<Map<number, string[]>> {
  const read = await readColumns(store, UNIT_IDS, { rows: (i) => wanted.has(i), count: wanted.size })
  const { offsets, codes } = columnOf(read, 'text_unit_ids', 'list<string>')
  const lists = rowsOfLists(read.values, offsets, codes)
  // The read keeps table order: the k-th wanted row (ascending) is its k-th row.
  return new Map([...wanted].sort((a, b) => a - b).map((row, k) => [row, lists[k]!]))
}

function rowsOfLists(values: TableColumns['values'], offsets: Int32Array, codes: Int32Array): string[][] {
  return Array.from({ length: offsets.length - 1 }, (_, k) =>
    Array.from(codes.subarray(offsets[k], offsets[k + 1]), (code) => values[code]!),
  )
}

/** Row index by relationship id (the last row of a repeated id, as the writer's lookup by id keeps). */
function rowsById(table: TableColumns): Map<string, number> {
  const { codes } = columnOf(table, 'id', 'string')
  const rowOf = new Map<string, number>()
  for (let i = 0; i < codes.length; i++) rowOf.set(table.values[codes[i]!]!, i)
  return rowOf
}

/**
 * The writer's `stronger` on rows of the read: heaviest first, then the higher combined degree, then
 * by source and target.
 */
function columnOrder(table: TableColumns): (a: number, b: number) => number {
  const weight = numbers(table, 'weight')
  const degree = numbers(table, 'combined_degree')
  const source = columnOf(table, 'source', 'string').codes
  const target = columnOf(table, 'target', 'string').codes
  const key = (i: number) => `${table.values[source[i]!]}\u0000${table.values[target[i]!]}`
  return (a, b) => weight[b]! - weight[a]! || degree[b]! - degree[a]! || (key(a) < key(b) ? -1 : 1)
}

/** A number column's values (the pipeline writes no null weight or degree). */
function numbers(table: TableColumns, name: 'weight' | 'combined_degree'): Float64Array {
  const column = table.columns.get(name)
  if (column === undefined || column.kind === 'string' || column.kind === 'list<string>')
    throw new TypeError(`no number column ${name} in this read`)
  return column.values
}
