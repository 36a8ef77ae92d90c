/**
 * Starting partitions for Leiden (graspologic's `starting_communities`, igraph's `initial_membership`):
 * a previous clustering turned into compact community ids, each previous community split into its
 * connected pieces in the current network and every node without a previous community alone.
 */
import type { CsrNetwork } from './network.js'

/** Previous community label per node id; −1 = none (the node starts as a singleton). */
export type StartingLabels = Int32Array

/**
 * Compact ids 0..k−1 (k ≤ nodeCount), numbered in order of each piece's smallest node id, so the
 * result depends only on the network and the labels. A previous community that the current network
 * no longer holds together starts as its connected pieces: Leiden only ever splits a community through
 * refinement within it, and a starting community whose pieces have no edge between them could stay
 * disconnected (the spec's sanity pass does the same for members with no edge into their community).
 */
export function startingMembership(g: CsrNetwork, labels: StartingLabels): Int32Array {
  const n = g.nodeCount
  const { offsets, neighbors } = g
  const membership = new Int32Array(n).fill(-1)
  const stack = new Int32Array(n)
  let next = 0
  for (let root = 0; root < n; root++) {
    if (membership[root] >= 0) continue
    const id = next++
    membership[root] = id
    const label = labels[root]
    if (label < 0) continue
    let top = 0
    stack[top++] = root
    while (top > 0) {
      const v = stack[--top]
      for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
        const u = neighbors[e]
        if (membership[u] < 0 && labels[u] === label) {
          membership[u] = id
          stack[top++] = u
        }
      }
    }
  }
  return membership
}
