/**
 * CSR network built from a labelled edge list with graspologic-native's builder rules (spec leiden.md
 * §5.1): ids by first appearance, first weight of a repeated pair wins, self-loops kept out of the
 * adjacency but summed, rows sorted by neighbour id, node weight = row sum.
 */
import { InvalidGraphError } from '../../errors.js'
import { nameNumbering } from '../numbering.js'

/**
 * One level of the graph: undirected, both directions stored. Rows are sorted by neighbour id as
 * built and in compat-mode aggregates; quality-mode aggregates and permuted copies leave them unsorted.
 */
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
  const { names, idOf } = nameNumbering()
  const edgeCount = edges.length
  const source = new Int32Array(edgeCount)
  const target = new Int32Array(edgeCount)
  const weight = new Float64Array(edgeCount)
  for (let i = 0; i < edgeCount; i++) {
    const edge = edges[i]
    if (!Array.isArray(edge) || edge.length < 3)
      throw new InvalidGraphError(`edge ${i} is not a [source, target, weight] tuple`)
    const [s, t, w] = edge
    if (typeof s !== 'string' || typeof t !== 'string')
      throw new InvalidGraphError(`edge ${i}: node ids must be strings`)
    if (typeof w !== 'number' || !(w >= 0 && w < Infinity)) throw new InvalidGraphError(weightMessage(i, s, t, w))
    source[i] = idOf(s)
    target[i] = idOf(t)
    weight[i] = w
  }
  return buildNetworkFromArrays({ names, source, target, weight })
}

/** An edge list as columns: `source[i]`, `target[i]` index `names`. */
export interface EdgeArrays {
  readonly names: readonly string[]
  readonly source: Int32Array
  readonly target: Int32Array
  readonly weight: Float64Array
}

function weightMessage(i: number, s: string, t: string, w: unknown): string {
  return `edge ${i} (${s} -- ${t}): weight must be a finite number >= 0, got ${String(w)}`
}

/**
 * As `buildNetwork`, on an edge list kept as columns (names need not be in appearance order: node ids
 * are given by first appearance here, source before target).
 */
export function buildNetworkFromArrays({ names, source, target, weight }: EdgeArrays): LabeledNetwork {
  const idOfName = new Int32Array(names.length).fill(-1)
  const labels: string[] = []
  const idOf = (name: number): number => {
    if (idOfName[name] < 0) {
      idOfName[name] = labels.length
      labels.push(names[name])
    }
    return idOfName[name]
  }
  const edgeCount = source.length
  const src = new Int32Array(edgeCount)
  const dst = new Int32Array(edgeCount)
  const wts = new Float64Array(edgeCount)
  let kept = 0
  const selfLoops = new Map<number, number>()
  for (let i = 0; i < edgeCount; i++) {
    const w = weight[i]
    if (!(w >= 0 && w < Infinity)) throw new InvalidGraphError(weightMessage(i, names[source[i]], names[target[i]], w))
    const a = idOf(source[i])
    const b = idOf(target[i])
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
function csrFromEdgeArrays(
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
  // Rows filled in edge order, then a stable sort of each row by neighbour id: duplicates of one
  // pair end up adjacent in edge order, so "first wins" is a simple compaction.
  const sNb = new Int32Array(total)
  const sW = new Float64Array(total)
  const fill = deg.slice(0, n)
  for (let i = 0; i < count; i++) {
    const a = src[i]
    const b = dst[i]
    let p = fill[a]++
    sNb[p] = b
    sW[p] = wts[i]
    p = fill[b]++
    sNb[p] = a
    sW[p] = wts[i]
  }
  for (let v = 0; v < n; v++) sortRowStable(sNb, sW, deg[v], deg[v + 1])
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

/** Stable sort of one row [from, to) by neighbour id, weights carried along. */
function sortRowStable(nb: Int32Array, w: Float64Array, from: number, to: number): void {
  if (to - from <= 48) {
    for (let i = from + 1; i < to; i++) {
      const x = nb[i]
      const y = w[i]
      let j = i - 1
      while (j >= from && nb[j] > x) {
        nb[j + 1] = nb[j]
        w[j + 1] = w[j]
        j--
      }
      nb[j + 1] = x
      w[j + 1] = y
    }
    return
  }
  // Long rows (hubs) are rare: sort positions, ties by position to stay stable.
  const len = to - from
  const idx = Array.from({ length: len }, (_, i) => from + i).sort((a, b) => nb[a] - nb[b] || a - b)
  const rowNb = Int32Array.from(idx, (i) => nb[i])
  const rowW = Float64Array.from(idx, (i) => w[i])
  nb.set(rowNb, from)
  w.set(rowW, from)
}

/** Adds node weights (row sums in row order) and the adjacency total. */
function finishNetwork(
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

/**
 * Copy of g with node x of the copy = node oldOf[x] of g. Rows keep their original neighbour order
 * (not re-sorted by new id), which is what lets callers reproduce enumeration orders of g.
 */
export function permuteNetwork(g: CsrNetwork, oldOf: Int32Array): CsrNetwork {
  const n = g.nodeCount
  const newOf = new Int32Array(n)
  for (let x = 0; x < n; x++) newOf[oldOf[x]] = x
  const offsets = new Int32Array(n + 1)
  const neighbors = new Int32Array(g.neighbors.length)
  const weights = new Float64Array(g.weights.length)
  const nodeWeights = new Float64Array(n)
  let out = 0
  for (let x = 0; x < n; x++) {
    const v = oldOf[x]
    offsets[x] = out
    nodeWeights[x] = g.nodeWeights[v]
    for (let e = g.offsets[v], end = g.offsets[v + 1]; e < end; e++) {
      neighbors[out] = newOf[g.neighbors[e]]
      weights[out] = g.weights[e]
      out++
    }
  }
  offsets[n] = out
  return { ...g, offsets, neighbors, weights, nodeWeights }
}
