/**
 * prune_graph decided on the relationships as columns (TableStore's column read): source and target
 * as codes into the titles, weights in a Float64Array. The same entities and relationships as
 * pruneGraph (prune-graph.ts) over the rows, which stays the reference: degrees, ceilings and the
 * largest connected component are computed on integers, and the relationships kept come back as a
 * mark per row, so their full rows can be read alone.
 */
import { compareCodePoints } from '../../text/names.js'
import {
  degreeRemovals,
  frequencyRemovals,
  type PrunableEntity,
  type PruneGraphOptions,
  percentile,
} from './prune-graph.js'

/** The deciding columns of the relationships: row i links titles[source[i]] and titles[target[i]]. */
export interface PairCodes {
  readonly source: Int32Array
  readonly target: Int32Array
  readonly weight: Float64Array
  readonly titles: readonly (string | null)[]
}

export interface PrunedCodes<E> {
  readonly entities: E[]
  /** 1 for each relationship row kept. */
  readonly wanted: Uint8Array
  readonly kept: number
}

export function prunePairCodes<E extends PrunableEntity>(
  entities: readonly E[],
  pairs: PairCodes,
  options: PruneGraphOptions,
): PrunedCodes<E> {
  const removed = degreeRemovals(degreeMapOfCodes(entities, pairs), options)
  frequencyRemovals(entities, removed, options)
  const kept = new Set(entities.map((e) => e.title).filter((t) => !removed.has(t)))
  let outEntities = entities.filter((e) => kept.has(e.title))
  const wanted = new Uint8Array(pairs.source.length)
  const keptCode = pairs.titles.map((title) => title !== null && kept.has(title))
  for (let i = 0; i < wanted.length; i++) if (keptCode[pairs.source[i]!] && keptCode[pairs.target[i]!]) wanted[i] = 1
  let count = countMarked(wanted)
  if (options.min_edge_weight_pct > 0 && count > 0) count = dropBelowPercentile(pairs.weight, wanted, count, options)
  if (options.lcc_only && count > 0) {
    const lcc = largestComponentCodes(pairs, wanted)
    const inLcc = new Set(pairs.titles.filter((_, code) => lcc[code] === 1))
    outEntities = outEntities.filter((e) => inLcc.has(e.title))
    for (let i = 0; i < wanted.length; i++)
      if (wanted[i] === 1 && (lcc[pairs.source[i]!] === 0 || lcc[pairs.target[i]!] === 0)) wanted[i] = 0
    count = countMarked(wanted)
  }
  return { entities: outEntities, wanted, kept: count }
}

function countMarked(marks: Uint8Array): number {
  let count = 0
  for (const mark of marks) count += mark
  return count
}

/** Unmarks the rows whose weight is below the percentile of the marked rows' weights; the rows left. */
function dropBelowPercentile(
  weight: Float64Array,
  wanted: Uint8Array,
  count: number,
  options: PruneGraphOptions,
): number {
  const weights = new Float64Array(count)
  for (let i = 0, k = 0; i < wanted.length; i++) if (wanted[i] === 1) weights[k++] = weight[i]!
  const threshold = percentile(weights, options.min_edge_weight_pct)
  for (let i = 0; i < wanted.length; i++) if (wanted[i] === 1 && !(weight[i]! >= threshold)) wanted[i] = 0
  return countMarked(wanted)
}

/**
 * degreeMap over codes: undirected degree over unique unordered pairs (a self-loop counts 2), keyed by
 * title in code-point order, then the entities without relationships (degree 0) in table order.
 */
export function degreeMapOfCodes(entities: readonly PrunableEntity[], pairs: PairCodes): Map<string, number> {
  const counts = degreesOfCodes(pairs)
  const linked: string[] = []
  counts.forEach((count, code) => {
    if (count > 0) linked.push(pairs.titles[code] as string)
  })
  const codeOf = new Map(pairs.titles.map((title, code) => [title, code]))
  const out = new Map<string, number>()
  for (const title of linked.sort(compareCodePoints)) out.set(title, counts[codeOf.get(title)!]!)
  for (const e of entities) if (!out.has(e.title)) out.set(e.title, 0)
  return out
}

/**
 * Undirected degree per title code over unique unordered pairs (a self-loop counts 2), as the row
 * forms count it (prune-graph.ts's degreeMap, finalize-graph.ts's degrees).
 */
export function degreesOfCodes(
  pairs: Omit<PairCodes, 'weight'>,
  orderedUnique: boolean = orderedUniqueCodes(pairs),
): Int32Array {
  const counts = new Int32Array(pairs.titles.length)
  const { source, target } = pairs
  // A noun graph's pairs come ordered and unique: no set of pairs then (tens of millions on a dense corpus).
  const seen = orderedUnique ? undefined : new Set<number>()
  for (let i = 0; i < source.length; i++) {
    const [a, b] = source[i]! <= target[i]! ? [source[i]!, target[i]!] : [target[i]!, source[i]!]
    if (seen !== undefined) {
      const key = a * pairs.titles.length + b
      if (seen.has(key)) continue
      seen.add(key)
    }
    counts[a]! += 1
    counts[b]! += 1
  }
  return counts
}

/** Whether every pair has source < target and sorts strictly after the one before it (JavaScript's string order). */
export function orderedUniqueCodes({ source, target, titles }: Omit<PairCodes, 'weight'>): boolean {
  const byText = [...titles.keys()].sort((x, y) => {
    const [a, b] = [titles[x] as string, titles[y] as string]
    return a < b ? -1 : a > b ? 1 : 0
  })
  const rank = new Int32Array(titles.length)
  byText.forEach((code, at) => {
    rank[code] = at
  })
  for (let i = 0; i < source.length; i++) {
    const [s, t] = [rank[source[i]!]!, rank[target[i]!]!]
    if (s >= t) return false
    if (i === 0) continue
    const [before, beforeTarget] = [rank[source[i - 1]!]!, rank[target[i - 1]!]!]
    if (before > s || (before === s && beforeTarget >= t)) return false
  }
  return true
}

/**
 * The codes (1 per title code) of the largest connected component of the marked rows, as
 * largestConnectedComponent (stable-lcc.ts) chooses it: nodes numbered all sources in row order, then
 * all targets; of equal sizes, the component of the lowest-numbered node.
 */
export function largestComponentCodes({ source, target, titles }: PairCodes, wanted: Uint8Array): Uint8Array {
  const nodeOf = new Int32Array(titles.length).fill(-1)
  const codeOfNode: number[] = []
  const number = (code: number) => {
    if (nodeOf[code] === -1) nodeOf[code] = codeOfNode.push(code) - 1
  }
  for (let i = 0; i < wanted.length; i++) if (wanted[i] === 1) number(source[i]!)
  for (let i = 0; i < wanted.length; i++) if (wanted[i] === 1) number(target[i]!)
  const parent = Int32Array.from(codeOfNode, (_, v) => v)
  const find = (x: number): number => {
    while (parent[x] !== x) {
      parent[x] = parent[parent[x]!]!
      x = parent[x]!
    }
    return x
  }
  for (let i = 0; i < wanted.length; i++) {
    if (wanted[i] === 0) continue
    const [a, b] = [find(nodeOf[source[i]!]!), find(nodeOf[target[i]!]!)]
    if (a !== b) parent[a] = b
  }
  const size = new Int32Array(codeOfNode.length)
  for (let v = 0; v < codeOfNode.length; v++) size[find(v)]! += 1
  // Nodes in number order meet each component first at its lowest-numbered node: the first largest wins.
  let best = -1
  for (let v = 0; v < codeOfNode.length; v++) if (best === -1 || size[find(v)]! > size[best]!) best = find(v)
  const inLargest = new Uint8Array(titles.length)
  for (let v = 0; v < codeOfNode.length; v++) if (find(v) === best) inLargest[codeOfNode[v]!] = 1
  return inLargest
}
