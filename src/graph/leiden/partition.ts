/**
 * Partition helpers over Int32Array memberships: members grouped by community (counting sort,
 * members ascending) and the two shuffles.
 */
import type { XorShift128 } from './rng.js'
import type { Scratch } from './scratch.js'

/** Fills `s.start[0..k]` and `s.members` so that community c's members, ascending, are members[start[c]..start[c+1]). */
export function groupMembers(membership: Int32Array, n: number, k: number, s: Scratch): void {
  const start = s.start
  for (let c = 0; c <= k; c++) start[c] = 0
  for (let v = 0; v < n; v++) start[membership[v] + 1]++
  for (let c = 0; c < k; c++) start[c + 1] += start[c]
  const fill = s.map
  for (let c = 0; c < k; c++) fill[c] = start[c]
  const members = s.members
  for (let v = 0; v < n; v++) members[fill[membership[v]]++] = v
}

/** graspologic's shuffle: for each position i, swap with a uniform position in [0, n). Biased, but exact. */
export function naiveShuffle(order: Int32Array, from: number, n: number, rng: XorShift128): void {
  // The reference skips the shuffle (and its draws) for a single node.
  if (n <= 1) return
  for (let i = 0; i < n; i++) {
    const j = rng.genRange(n)
    const t = order[from + i]
    order[from + i] = order[from + j]
    order[from + j] = t
  }
}

/** Unbiased Fisher–Yates shuffle (quality mode). */
export function fisherYates(order: Int32Array, from: number, n: number, rng: XorShift128): void {
  for (let i = n - 1; i > 0; i--) {
    const j = rng.genRange(i + 1)
    const t = order[from + i]
    order[from + i] = order[from + j]
    order[from + j] = t
  }
}
