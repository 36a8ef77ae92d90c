/**
 * Refinement step of Leiden (Traag et al. 2019, Algorithm A.2 "RefinePartition"): each community is
 * split into well-connected pieces by merging singletons, with probability ∝ exp(ΔH/θ).
 * `refineCompat` follows graspologic-native exactly (spec leiden.md §5.5–5.6: own subnetwork, intra
 * degrees as node weights, naive shuffle); `refinePaper` works in place with full-graph degrees.
 */
import { InternalError } from '../../errors.js'
import type { CsrNetwork } from './network.js'
import { fisherYates, groupMembers, naiveShuffle } from './partition.js'
import type { XorShift128 } from './rng.js'
import type { Scratch } from './scratch.js'

interface RefineResult {
  /** Refined community per node of g, compact; pieces of community c are contiguous and ordered by c. */
  refined: Int32Array
  refinedCount: number
  /** Community (of the unrefined partition) of each refined piece. */
  blockOf: Int32Array
}

/** (1 + x/256)^256 by eight squarings, as the reference does; 0 below −256. */
function approxExp(x: number): number {
  if (x < -256) return 0
  let y = 1 + x / 256
  y *= y
  y *= y
  y *= y
  y *= y
  y *= y
  y *= y
  y *= y
  y *= y
  return y
}

/** Refines every community of `membership` (compact, k communities) in id order. */
export function refinePartition(
  g: CsrNetwork,
  membership: Int32Array,
  k: number,
  r: number,
  theta: number,
  rng: XorShift128,
  s: Scratch,
  compat: boolean,
  depth: number,
): RefineResult {
  const n = g.nodeCount
  groupMembers(membership, n, k, s)
  const refined = s.refinedBuffer(depth, n)
  const blockOf = s.blockBuffer(depth, n)
  const { start, members } = s
  let offset = 0
  for (let c = 0; c < k; c++) {
    const from = start[c]
    const to = start[c + 1]
    let pieces: number
    if (to - from === 1) {
      refined[members[from]] = offset
      pieces = 1
    } else if (compat) {
      pieces = refineCompat(g, members, from, to, membership, c, r, theta, rng, s, refined, offset)
    } else {
      pieces = refinePaper(g, members, from, to, membership, c, r, theta, rng, s, refined, offset)
    }
    for (let i = 0; i < pieces; i++) blockOf[offset + i] = c
    offset += pieces
  }
  return { refined, refinedCount: offset, blockOf: blockOf.subarray(0, offset) }
}

function refineCompat(
  g: CsrNetwork,
  members: Int32Array,
  from: number,
  to: number,
  membership: Int32Array,
  c: number,
  r: number,
  theta: number,
  rng: XorShift128,
  s: Scratch,
  refined: Int32Array,
  offset: number,
): number {
  const sub = s.refinementSub
  sub.build(g, members, from, to, membership, c)
  const n = sub.nodeCount
  if (n !== to - from) throw new InternalError(`community ${c} has a member without an intra-community edge`)
  const { offsets, neighbors, weights, nodeWeights } = sub
  const comm = s.refComm
  const single = s.singleton
  const cw = s.refWeight
  const ext = s.refExternal
  let total = 0
  for (let v = 0; v < n; v++) {
    comm[v] = v
    single[v] = 1
    cw[v] = nodeWeights[v]
    ext[v] = nodeWeights[v]
    total += nodeWeights[v]
  }
  const order = s.order
  for (let i = 0; i < n; i++) order[i] = i
  naiveShuffle(order, 0, n, rng)
  for (let i = 0; i < n; i++) {
    const v = order[i]
    if (single[comm[v]] === 0) continue
    if (!(ext[v] >= cw[v] * (total - cw[v]) * r)) continue
    cw[v] = 0
    ext[v] = 0
    const chosen = chooseCandidate(v, offsets, neighbors, weights, nodeWeights[v], comm, cw, ext, total, r, theta, rng, s)
    mergeInto(v, chosen, offsets, neighbors, weights, nodeWeights[v], comm, single, cw, ext)
  }
  // Renumber pieces by ascending surviving local id.
  const map = s.map
  for (let v = 0; v < n; v++) map[v] = -1
  for (let v = 0; v < n; v++) map[comm[v]] = 0
  let pieces = 0
  for (let v = 0; v < n; v++) if (map[v] === 0) map[v] = pieces++
  const l2g = sub.localToGlobal
  for (let v = 0; v < n; v++) refined[l2g[v]] = offset + map[comm[v]]
  return pieces
}

/**
 * Picks v's refined community: its own (now empty) singleton first, then neighbour communities in
 * adjacency order; only well-connected ones with ΔH ≥ 0 get weight approxExp(ΔH/θ).
 */
function chooseCandidate(
  v: number,
  offsets: Int32Array,
  neighbors: Int32Array,
  weights: Float64Array,
  wv: number,
  comm: Int32Array,
  cw: Float64Array,
  ext: Float64Array,
  total: number,
  r: number,
  theta: number,
  rng: XorShift128,
  s: Scratch,
): number {
  const { acc, touched, cumulative } = s
  acc[v] = 0
  touched[0] = v
  let nt = 1
  for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
    const c = comm[neighbors[e]]
    const a = acc[c]
    if (a < 0) {
      acc[c] = weights[e]
      touched[nt++] = c
    } else {
      acc[c] = a + weights[e]
    }
  }
  let best = v
  let bestQ = 0
  let sum = 0
  let nc = 0
  for (let i = 0; i < nt; i++) {
    const c = touched[i]
    if (ext[c] >= cw[c] * (total - cw[c]) * r) {
      const q = acc[c] - wv * cw[c] * r
      if (q > bestQ) {
        bestQ = q
        best = c
      }
      if (q >= 0) sum += approxExp(q / theta)
    }
    cumulative[nc++] = sum
  }
  s.clearAccumulator(nt)
  if (sum === Infinity || sum !== sum) return best
  const target = sum * rng.nextF64()
  // First position whose cumulative weight exceeds the target (binary search).
  let lo = 0
  let hi = nc - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (cumulative[mid] > target) hi = mid
    else lo = mid + 1
  }
  return touched[lo]
}

function mergeInto(
  v: number,
  chosen: number,
  offsets: Int32Array,
  neighbors: Int32Array,
  weights: Float64Array,
  wv: number,
  comm: Int32Array,
  single: Uint8Array,
  cw: Float64Array,
  ext: Float64Array,
): void {
  cw[chosen] += wv
  for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
    if (comm[neighbors[e]] === chosen) ext[chosen] -= weights[e]
    else ext[chosen] += weights[e]
  }
  if (chosen !== v) {
    comm[v] = chosen
    single[chosen] = 0
  }
}

/**
 * Paper refinement directly on g (no subnetwork copy): node weights are full-graph weights, the
 * candidate set is restricted to neighbours inside the community. Arrays are indexed by node id.
 */
function refinePaper(
  g: CsrNetwork,
  members: Int32Array,
  from: number,
  to: number,
  membership: Int32Array,
  c: number,
  r: number,
  theta: number,
  rng: XorShift128,
  s: Scratch,
  refined: Int32Array,
  offset: number,
): number {
  const { offsets, neighbors, weights, nodeWeights } = g
  const comm = s.refComm
  const single = s.singleton
  const cw = s.refWeight
  const ext = s.refExternal
  const order = s.order
  let total = 0
  for (let i = from; i < to; i++) {
    const v = members[i]
    comm[v] = v
    single[v] = 1
    cw[v] = nodeWeights[v]
    let inside = 0
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) if (membership[neighbors[e]] === c) inside += weights[e]
    ext[v] = inside
    total += nodeWeights[v]
    order[i - from] = v
  }
  const n = to - from
  fisherYates(order, 0, n, rng)
  const { acc, touched, cumulative } = s
  for (let i = 0; i < n; i++) {
    const v = order[i]
    if (single[comm[v]] === 0) continue
    const wv = nodeWeights[v]
    if (!(ext[v] >= wv * (total - wv) * r)) continue
    cw[v] = 0
    ext[v] = 0
    acc[v] = 0
    touched[0] = v
    let nt = 1
    const eStart = offsets[v]
    const eEnd = offsets[v + 1]
    for (let e = eStart; e < eEnd; e++) {
      const u = neighbors[e]
      if (membership[u] !== c) continue
      const cu = comm[u]
      const a = acc[cu]
      if (a < 0) {
        acc[cu] = weights[e]
        touched[nt++] = cu
      } else {
        acc[cu] = a + weights[e]
      }
    }
    let best = v
    let bestQ = 0
    let sum = 0
    for (let j = 0; j < nt; j++) {
      const cand = touched[j]
      if (ext[cand] >= cw[cand] * (total - cw[cand]) * r) {
        const q = acc[cand] - wv * cw[cand] * r
        if (q > bestQ) {
          bestQ = q
          best = cand
        }
        if (q >= 0) sum += approxExp(q / theta)
      }
      cumulative[j] = sum
    }
    s.clearAccumulator(nt)
    let chosen = best
    if (sum !== Infinity && sum === sum) {
      const target = sum * rng.nextF64()
      let lo = 0
      let hi = nt - 1
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (cumulative[mid] > target) hi = mid
        else lo = mid + 1
      }
      chosen = touched[lo]
    }
    cw[chosen] += wv
    for (let e = eStart; e < eEnd; e++) {
      const u = neighbors[e]
      if (membership[u] !== c) continue
      if (comm[u] === chosen) ext[chosen] -= weights[e]
      else ext[chosen] += weights[e]
    }
    if (chosen !== v) {
      comm[v] = chosen
      single[chosen] = 0
    }
  }
  // Pieces numbered by first appearance among the members (ascending).
  const map = s.map
  for (let i = from; i < to; i++) map[members[i]] = -1
  let pieces = 0
  for (let i = from; i < to; i++) {
    const root = comm[members[i]]
    if (map[root] < 0) map[root] = pieces++
    refined[members[i]] = offset + map[root]
  }
  return pieces
}
