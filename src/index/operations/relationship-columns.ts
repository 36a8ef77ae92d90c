/**
 * The relationships as clustering and the community rows read them, kept as typed columns instead of
 * row objects: endpoint names interned as ranks in code-point order (so comparing two ranks compares
 * the names as the reference does), weights in one Float64Array, text-unit lists as one flat
 * Int32Array of unit ranks with offsets. A dense corpus has tens of millions of relationships; a row
 * object each (with its list) costs several times these columns.
 */
import { columnOf, type TableColumns } from '../../storage/table-columns.js'
import { compareCodePoints } from '../../text/names.js'

/** The edge fields clustering reads, one entry per relationship row, in table order. */
export interface EdgeColumns {
  readonly length: number
  /** Distinct endpoint names in code-point order; `source` and `target` hold ranks into it. */
  readonly names: readonly string[]
  readonly source: Int32Array
  readonly target: Int32Array
  /** The row's weight, 1 where it has none (clustering's reading of an absent weight). */
  readonly weight: Float64Array
}

/** With the fields a community row lists: the relationship ids and their text units. */
export interface RelationshipColumns extends EdgeColumns {
  readonly ids: readonly string[]
  /** Distinct text-unit ids in code-point order. */
  readonly unitNames: readonly string[]
  /** Row i's units are `units[unitOffsets[i]]` up to `units[unitOffsets[i + 1]]` (ranks into unitNames). */
  readonly unitOffsets: Int32Array
  readonly units: Int32Array
}

interface EdgeRow {
  readonly source: string
  readonly target: string
  readonly weight?: number | null
}

interface RelationshipRowRef extends EdgeRow {
  readonly id: string
  readonly text_unit_ids: readonly string[]
}

/** Distinct values in code-point order and the rank of each. */
function ranked(distinct: Iterable<string>): { names: string[]; rankOf: Map<string, number> } {
  const names = [...distinct].sort(compareCodePoints)
  return { names, rankOf: new Map(names.map((name, i) => [name, i])) }
}

export function edgeColumns(rows: ReadonlyArray<EdgeRow>): EdgeColumns {
  const distinct = new Set<string>()
  for (const r of rows) distinct.add(r.source).add(r.target)
  const { names, rankOf } = ranked(distinct)
  distinct.clear()
  const length = rows.length
  const source = new Int32Array(length)
  const target = new Int32Array(length)
  const weight = new Float64Array(length)
  for (let i = 0; i < length; i++) {
    const r = rows[i]
    source[i] = rankOf.get(r.source) ?? -1
    target[i] = rankOf.get(r.target) ?? -1
    weight[i] = Number(r.weight ?? 1)
  }
  return { length, names, source, target, weight }
}

export function relationshipColumns(rows: ReadonlyArray<RelationshipRowRef>): RelationshipColumns {
  const edges = edgeColumns(rows)
  const distinct = new Set<string>()
  let occurrences = 0
  for (const r of rows) {
    for (const unit of r.text_unit_ids) distinct.add(unit)
    occurrences += r.text_unit_ids.length
  }
  const { names: unitNames, rankOf } = ranked(distinct)
  const unitOffsets = new Int32Array(rows.length + 1)
  const units = new Int32Array(occurrences)
  let at = 0
  for (let i = 0; i < rows.length; i++) {
    for (const unit of rows[i].text_unit_ids) units[at++] = rankOf.get(unit) ?? -1
    unitOffsets[i + 1] = at
  }
  return { ...edges, ids: rows.map((r) => r.id), unitNames, unitOffsets, units }
}

/**
 * Ranks in code-point order of the strings some codes of a column read stand for: `rankOf[code]` is the
 * rank of `values[code]` among the strings used (−1 for a code none of `used` holds), `names` those
 * strings in order. The read's list mixes every column's strings, so only the codes used are ranked.
 */
function rankCodes(
  values: TableColumns['values'],
  used: readonly Int32Array[],
): { names: string[]; rankOf: Int32Array } {
  const rankOf = new Int32Array(values.length).fill(-1)
  for (const codes of used) for (const code of codes) rankOf[code] = 0
  const names: string[] = []
  for (let code = 0; code < values.length; code++) if (rankOf[code] === 0) names.push(values[code] as string)
  names.sort(compareCodePoints)
  const rankOfName = new Map(names.map((name, i) => [name, i]))
  for (let code = 0; code < values.length; code++)
    if (rankOf[code] === 0) rankOf[code] = rankOfName.get(values[code] as string) ?? -1
  return { names, rankOf }
}

/** The codes mapped to ranks. */
function mapped(codes: Int32Array, rankOf: Int32Array): Int32Array {
  const out = new Int32Array(codes.length)
  for (let i = 0; i < codes.length; i++) out[i] = rankOf[codes[i]]
  return out
}

/**
 * edgeColumns of a column read (readColumns) of `source`, `target` and `weight`: the same columns
 * without a row object on the way.
 */
export function edgeColumnsOfTable(table: TableColumns): EdgeColumns {
  const source = columnOf(table, 'source', 'string').codes
  const target = columnOf(table, 'target', 'string').codes
  const { names, rankOf } = rankCodes(table.values, [source, target])
  const { values, nulls } = columnOf(table, 'weight', 'double')
  const weight = nulls === undefined ? values : values.map((w, i) => (nulls[i] === 1 ? 1 : w))
  return { length: table.length, names, source: mapped(source, rankOf), target: mapped(target, rankOf), weight }
}

/** relationshipColumns of a column read of `id`, `source`, `target`, `weight` and `text_unit_ids`. */
export function relationshipColumnsOfTable(table: TableColumns): RelationshipColumns {
  const edges = edgeColumnsOfTable(table)
  const ids = Array.from(columnOf(table, 'id', 'string').codes, (code) => table.values[code] as string)
  const lists = columnOf(table, 'text_unit_ids', 'list<string>')
  const { names: unitNames, rankOf } = rankCodes(table.values, [lists.codes])
  return { ...edges, ids, unitNames, unitOffsets: lists.offsets, units: mapped(lists.codes, rankOf) }
}

/**
 * Positions 0..n−1 ordered by key (ascending, keys in [0, buckets)), equal keys keeping the order of
 * `order`: one counting sort, so two of them (second key first) order by a pair of keys.
 */
export function stableOrderBy(order: Int32Array, key: (i: number) => number, buckets: number): Int32Array {
  const start = new Int32Array(buckets + 1)
  for (let j = 0; j < order.length; j++) start[key(order[j]) + 1]++
  for (let b = 0; b < buckets; b++) start[b + 1] += start[b]
  const out = new Int32Array(order.length)
  for (let j = 0; j < order.length; j++) {
    const i = order[j]
    out[start[key(i)]++] = i
  }
  return out
}

/** 0..n−1. */
export function identityOrder(n: number): Int32Array {
  const order = new Int32Array(n)
  for (let i = 0; i < n; i++) order[i] = i
  return order
}
