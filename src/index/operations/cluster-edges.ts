/**
 * Clustering's edge list (spec reference-index.md §5.9 steps 1–3) made on EdgeColumns: each pair
 * oriented (smaller name first) with the weight of its last row, pairs of weight ≤ 0 left out,
 * optionally the stable largest connected component (normalised names, repeated pairs first kept),
 * sorted by (source, target). Names are ranks in code-point order throughout, so the orientation and
 * the sort compare integers; the result is the same list cluster-graph.ts's row form describes.
 */
import { compareCodePoints, normalizeNodeName } from '../../text/names.js'
import { type EdgeColumns, identityOrder, stableOrderBy } from './relationship-columns.js'

/** The sorted edge list: `source`, `target` are ranks into `labels`, one entry per distinct pair. */
export interface PreparedEdges {
  readonly labels: readonly string[]
  readonly source: Int32Array
  readonly target: Int32Array
  readonly weight: Float64Array
  /** Pairs left out because their weight is ≤ 0. */
  readonly nonPositiveEdges: number
}

/** Row positions ordered by (smaller rank, larger rank), rows of one pair in table order. */
function orderByPair(edges: EdgeColumns): Int32Array {
  const { source, target, names } = edges
  const lo = (i: number) => Math.min(source[i], target[i])
  const hi = (i: number) => Math.max(source[i], target[i])
  return stableOrderBy(stableOrderBy(identityOrder(edges.length), hi, names.length), lo, names.length)
}

/**
 * The last row of each pair, in (smaller, larger) order, and the same rows in table order (the order
 * of each pair's last occurrence).
 */
export function lastRowOfEachPair(edges: EdgeColumns): { byPair: Int32Array; byOccurrence: Int32Array } {
  const order = orderByPair(edges)
  const { source, target } = edges
  const last: number[] = []
  for (let j = 0; j < order.length; j++) {
    const i = order[j]
    const next = order[j + 1]
    const samePair =
      next !== undefined &&
      Math.min(source[i], target[i]) === Math.min(source[next], target[next]) &&
      Math.max(source[i], target[i]) === Math.max(source[next], target[next])
    if (!samePair) last.push(i)
  }
  const byPair = Int32Array.from(last)
  return { byPair, byOccurrence: byPair.slice().sort() }
}

/** Rows of weight ≤ 0 carry no affinity (see cluster-graph.ts prepareEdges). */
function positive(rows: Int32Array, weight: Float64Array): Int32Array {
  return rows.filter((i) => !(weight[i] <= 0))
}

export function prepareEdgeColumns(edges: EdgeColumns, useLcc: boolean): PreparedEdges {
  const { byPair, byOccurrence } = lastRowOfEachPair(edges)
  const kept = positive(useLcc ? byOccurrence : byPair, edges.weight)
  const nonPositiveEdges = byPair.length - kept.length
  if (useLcc) return { ...largestComponentEdges(edges, kept), nonPositiveEdges }
  const { source, target, weight, names } = edges
  return {
    labels: names,
    source: kept.map((i) => Math.min(source[i], target[i])),
    target: kept.map((i) => Math.max(source[i], target[i])),
    weight: Float64Array.from(kept, (i) => weight[i]),
    nonPositiveEdges,
  }
}

/** Each name's rank among the distinct normalised names (code-point order), and those names. */
function normalisedRanks(names: readonly string[]): { labels: string[]; rankOf: Int32Array } {
  const normalised = names.map(normalizeNodeName)
  const labels = [...new Set(normalised)].sort(compareCodePoints)
  const rank = new Map(labels.map((label, i) => [label, i]))
  return { labels, rankOf: Int32Array.from(normalised, (n) => rank.get(n) ?? -1) }
}

/**
 * The stable LCC (graph/components/stable-lcc.ts on ranks): `rows` in order of last occurrence, names
 * normalised, nodes numbered all sources then all targets, the largest component (ties: the one
 * numbered first), pairs oriented on the normalised names, a repeated pair's first row kept.
 */
function largestComponentEdges(edges: EdgeColumns, rows: Int32Array): Omit<PreparedEdges, 'nonPositiveEdges'> {
  const { labels, rankOf } = normalisedRanks(edges.names)
  const { source, target, weight } = edges
  const a = rows.map((i) => rankOf[Math.min(source[i], target[i])])
  const b = rows.map((i) => rankOf[Math.max(source[i], target[i])])
  const inside = largestComponent(a, b, labels.length)
  const at = rows.filter((_, j) => inside[a[j]] === 1 && inside[b[j]] === 1).length
  const pick = new Int32Array(at)
  for (let j = 0, k = 0; j < rows.length; j++) if (inside[a[j]] === 1 && inside[b[j]] === 1) pick[k++] = j
  const x = pick.map((j) => Math.min(a[j], b[j]))
  const y = pick.map((j) => Math.max(a[j], b[j]))
  const order = stableOrderBy(
    stableOrderBy(identityOrder(at), (k) => y[k], labels.length),
    (k) => x[k],
    labels.length,
  )
  const first = order.filter((k, j) => j === 0 || x[order[j - 1]] !== x[k] || y[order[j - 1]] !== y[k])
  return {
    labels,
    source: first.map((k) => x[k]),
    target: first.map((k) => y[k]),
    weight: Float64Array.from(first, (k) => weight[rows[pick[k]]]),
  }
}

/**
 * 1 for the nodes of the largest connected component of the edges (a[j], b[j]) over `n` nodes. Nodes
 * are numbered as met in all `a`, then all `b`; of equal sizes, the component with the lowest number wins.
 */
function largestComponent(a: Int32Array, b: Int32Array, n: number): Uint8Array {
  const number = new Int32Array(n).fill(-1)
  let count = 0
  for (const v of a) if (number[v] < 0) number[v] = count++
  for (const v of b) if (number[v] < 0) number[v] = count++
  const parent = identityOrder(count)
  const find = (v: number): number => {
    while (parent[v] !== v) {
      parent[v] = parent[parent[v]]
      v = parent[v]
    }
    return v
  }
  for (let j = 0; j < a.length; j++) {
    const ra = find(number[a[j]])
    const rb = find(number[b[j]])
    if (ra !== rb) parent[ra] = rb
  }
  const size = new Int32Array(count)
  for (let v = 0; v < count; v++) size[find(v)]++
  let best = -1
  // Roots met in numbering order: the first of the largest size wins.
  for (let v = 0; v < count; v++) if (best < 0 || size[find(v)] > size[best]) best = find(v)
  const inside = new Uint8Array(n)
  for (let v = 0; v < n; v++) if (number[v] >= 0 && find(number[v]) === best) inside[v] = 1
  return inside
}
