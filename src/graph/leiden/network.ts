/**
 * CSR network built from a labelled edge list with graspologic-native's builder rules (spec leiden.md
 * §5.1): ids by first appearance, first weight of a repeated pair wins, self-loops kept out of the
 * adjacency but summed, rows sorted by neighbour id, node weight = row sum.
 */
import { InvalidGraphError } from '../../errors.js'

/** One level of the graph: undirected, both directions stored, rows sorted by neighbour id. */
export interface CsrNetwork {
  readonly nodeCount: number
  /** Row starts, length nodeCount + 1. */
  readonly offsets: Int32Array
  readonly neighbors: Int32Array
  readonly weights: Float64Array
  /** Degree for modularity (sum of the row), or aggregated degree sums after aggregation. */
  readonly nodeWeights: Float64Array
  /** Sum of all adjacency weights in CSR order (= 2m). */
  readonly totalAdjacencyWeight: number
  /** Total weight of distinct self-loops (kept out of adjacency and degree). */
  readonly selfLoopWeight: number
}

export interface LabeledNetwork {
  readonly network: CsrNetwork
  /** Node label per id, in first-appearance order. */
  readonly labels: readonly string[]
}

export type WeightedEdge = readonly [string, string, number]

/** Builds the network; throws InvalidGraphError on malformed edges or weights. */
export function buildNetwork(edges: ReadonlyArray<WeightedEdge>): LabeledNetwork {
  const ids = new Map<string, number>()
  const labels: string[] = []
  const idOf = (label: string): number => {
    let id = ids.get(label)
    if (id === undefined) {
      id = labels.length
      ids.set(label, id)
      labels.push(label)
    }
    return id
  }
  const edgeCount = edges.length
  const src = new Int32Array(edgeCount)
  const dst = new Int32Array(edgeCount)
  const wts = new Float64Array(edgeCount)
  let kept = 0
  const selfLoops = new Map<number, number>()
  for (let i = 0; i < edgeCount; i++) {
    const edge = edges[i]
    if (!Array.isArray(edge) || edge.length < 3) throw new InvalidGraphError(`edge ${i} is not a [source, target, weight] tuple`)
    const [s, t, w] = edge
    if (typeof s !== 'string' || typeof t !== 'string') throw new InvalidGraphError(`edge ${i}: node ids must be strings`)
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) {
      throw new InvalidGraphError(`edge ${i} (${s} -- ${t}): weight must be a finite number >= 0, got ${String(w)}`)
    }
    const a = idOf(s)
    const b = idOf(t)
    if (a === b) {
      if (!selfLoops.has(a)) selfLoops.set(a, w)
      continue
    }
    src[kept] = a
    dst[kept] = b
    wts[kept] = w
    kept++
  }
  let selfLoopWeight = 0
  for (const w of selfLoops.values()) selfLoopWeight += w
  const network = csrFromEdgeArrays(labels.length, src, dst, wts, kept, selfLoopWeight)
  return { network, labels }
}

/** Undirected CSR from parallel arrays; duplicate pairs keep the weight of their first occurrence. */
export function csrFromEdgeArrays(
  n: number,
  src: Int32Array,
  dst: Int32Array,
  wts: Float64Array,
  count: number,
  selfLoopWeight: number,
): CsrNetwork {
  const deg = new Int32Array(n + 1)
  for (let i = 0; i < count; i++) {
    deg[src[i] + 1]++
    deg[dst[i] + 1]++
  }
  for (let i = 0; i < n; i++) deg[i + 1] += deg[i]
  const total = deg[n]
  // Unsorted rows in edge order, then a transpose pass that yields rows sorted by neighbour id with
  // duplicates of one pair adjacent in edge order (so "first wins" is a simple compaction).
  const uNb = new Int32Array(total)
  const uW = new Float64Array(total)
  const fill = deg.slice(0, n)
  for (let i = 0; i < count; i++) {
    const a = src[i]
    const b = dst[i]
    let p = fill[a]++
    uNb[p] = b
    uW[p] = wts[i]
    p = fill[b]++
    uNb[p] = a
    uW[p] = wts[i]
  }
  const sNb = new Int32Array(total)
  const sW = new Float64Array(total)
  fill.set(deg.subarray(0, n))
  for (let d = 0; d < n; d++) {
    for (let e = deg[d], end = deg[d + 1]; e < end; e++) {
      const p = fill[uNb[e]]++
      sNb[p] = d
      sW[p] = uW[e]
    }
  }
  // Compact duplicates in place, keeping the first of each run.
  const offsets = new Int32Array(n + 1)
  let out = 0
  for (let v = 0; v < n; v++) {
    offsets[v] = out
    let prev = -1
    for (let e = deg[v], end = deg[v + 1]; e < end; e++) {
      const u = sNb[e]
      if (u === prev) continue
      prev = u
      sNb[out] = u
      sW[out] = sW[e]
      out++
    }
  }
  offsets[n] = out
  const neighbors = out === total ? sNb : sNb.slice(0, out)
  const weights = out === total ? sW : sW.slice(0, out)
  return finishNetwork(n, offsets, neighbors, weights, selfLoopWeight)
}

/** Adds node weights (row sums in row order) and the adjacency total. */
export function finishNetwork(
  n: number,
  offsets: Int32Array,
  neighbors: Int32Array,
  weights: Float64Array,
  selfLoopWeight: number,
): CsrNetwork {
  const nodeWeights = new Float64Array(n)
  let totalAdjacencyWeight = 0
  for (let v = 0; v < n; v++) {
    let s = 0
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      s += weights[e]
      totalAdjacencyWeight += weights[e]
    }
    nodeWeights[v] = s
  }
  return { nodeCount: n, offsets, neighbors, weights, nodeWeights, totalAdjacencyWeight, selfLoopWeight }
}
