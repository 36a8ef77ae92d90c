/**
 * graspologic-native's refinement of one community, exactly (spec leiden.md §5.5–5.6): its own
 * subnetwork with intra-community degrees as node weights, naive shuffle, candidates in local
 * adjacency order, one f64 draw per processed node when the weight total is finite.
 */
import { InternalError } from '../../errors.js'
import type { CsrNetwork } from './network.js'
import { naiveShuffle } from './partition.js'
import { chooseRefinedCommunity } from './refine-weights.js'
import type { XorShift128 } from './rng.js'
import type { Scratch } from './scratch.js'

export function refineCompat(
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
    const chosen = chooseCandidate(v, offsets, neighbors, weights, nodeWeights[v], comm, total, r, theta, rng, s)
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
 * local adjacency order (every neighbour is in the community: the subnetwork holds only its edges).
 */
function chooseCandidate(
  v: number,
  offsets: Int32Array,
  neighbors: Int32Array,
  weights: Float64Array,
  wv: number,
  comm: Int32Array,
  total: number,
  r: number,
  theta: number,
  rng: XorShift128,
  s: Scratch,
): number {
  const { acc, touched } = s
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
  const chosen = chooseRefinedCommunity(nt, wv, total, r, theta, rng, s)
  s.clearAccumulator(nt)
  return chosen
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
