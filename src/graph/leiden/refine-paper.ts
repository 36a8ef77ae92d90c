/**
 * Refinement as in the paper (Traag et al. 2019, Algorithm A.2), in place on the level network:
 * full-graph node weights, well-connectedness against the whole community, Fisher–Yates order.
 */
import type { CsrNetwork } from './network.js'
import { fisherYates } from './partition.js'
import { chooseRefinedCommunity } from './refine-weights.js'
import type { XorShift128 } from './rng.js'
import type { Scratch } from './scratch.js'

/**
 * Paper refinement directly on g (no subnetwork copy): node weights are full-graph weights, the
 * candidate set is restricted to neighbours inside the community. Arrays are indexed by node id.
 */
export function refinePaper(
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
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++)
      if (membership[neighbors[e]] === c) inside += weights[e]
    ext[v] = inside
    total += nodeWeights[v]
    order[i - from] = v
  }
  const n = to - from
  fisherYates(order, 0, n, rng)
  const { acc, touched } = s
  for (let i = 0; i < n; i++) {
    const v = order[i]
    if (single[comm[v]] === 0) continue
    const wv = nodeWeights[v]
    const inside = ext[v]
    if (!(inside >= wv * (total - wv) * r)) continue
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
    const chosen = chooseRefinedCommunity(nt, wv, total, r, theta, rng, s)
    // E(C ∪ {v}, S ∖ (C ∪ {v})) = E(C, S ∖ C) + E(v, S ∖ {v}) − 2·w(v, C): no second pass over v's row.
    ext[chosen] += inside - 2 * acc[chosen]
    s.clearAccumulator(nt)
    cw[chosen] += wv
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
