/**
 * Refinement step of Leiden (Traag et al. 2019, Algorithm A.2 "RefinePartition"): each community is
 * split into well-connected pieces by merging singletons, with probability ∝ exp(ΔH/θ).
 * `refineCompat` follows graspologic-native exactly (spec leiden.md §5.5–5.6: own subnetwork, intra
 * degrees as node weights, naive shuffle); `refinePaper` works in place with full-graph degrees.
 */
import type { CsrNetwork } from './network.js'
import { groupMembers } from './partition.js'
import { refineCompat } from './refine-compat.js'
import { refinePaper } from './refine-paper.js'
import type { XorShift128 } from './rng.js'
import type { Scratch } from './scratch.js'

interface RefineResult {
  /** Refined community per node of g, compact; pieces of community c are contiguous and ordered by c. */
  refined: Int32Array
  refinedCount: number
  /** Community (of the unrefined partition) of each refined piece. */
  blockOf: Int32Array
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
