/**
 * Aggregate network: one node per refined community, node weight = sum of member weights, edge
 * weight = sum of the weights between two groups (spec leiden.md §5.7). Summing member rows in
 * ascending member order reproduces the reference's floating-point sums exactly.
 */
import type { CsrNetwork } from './network.js'
import { groupMembers } from './partition.js'
import type { AggregateBuffer, Scratch } from './scratch.js'

/**
 * Builds the aggregate into `target` and returns a view of it (valid until `target` is reused).
 * `sortRows` sorts each row by neighbour id, the reference's order (compat); quality mode does not
 * depend on row order and skips the sort (~4% of its time).
 */
export function aggregateNetwork(
  g: CsrNetwork,
  refined: Int32Array,
  count: number,
  s: Scratch,
  target: AggregateBuffer,
  sortRows: boolean,
): CsrNetwork {
  const n = g.nodeCount
  const { offsets, neighbors, weights, nodeWeights } = g
  groupMembers(refined, n, count, s)
  const { start, members, acc, touched } = s
  target.ensure(count, offsets[n])
  const { offsets: aOffsets, nodeWeights: aNodeWeights, neighbors: aNeighbors, weights: aWeights } = target
  let out = 0
  let total = 0
  for (let a = 0; a < count; a++) {
    aOffsets[a] = out
    let nt = 0
    let nw = 0
    for (let i = start[a], end = start[a + 1]; i < end; i++) {
      const v = members[i]
      nw += nodeWeights[v]
      for (let e = offsets[v], eEnd = offsets[v + 1]; e < eEnd; e++) {
        const b = refined[neighbors[e]]
        if (b === a) continue
        const x = acc[b]
        if (x < 0) {
          acc[b] = weights[e]
          touched[nt++] = b
        } else {
          acc[b] = x + weights[e]
        }
      }
    }
    aNodeWeights[a] = nw
    if (sortRows) sortAscending(touched, nt)
    for (let i = 0; i < nt; i++) {
      const b = touched[i]
      aNeighbors[out] = b
      aWeights[out] = acc[b]
      total += acc[b]
      acc[b] = -1
      out++
    }
  }
  aOffsets[count] = out
  return {
    nodeCount: count,
    offsets: aOffsets.subarray(0, count + 1),
    neighbors: aNeighbors.subarray(0, out),
    weights: aWeights.subarray(0, out),
    nodeWeights: aNodeWeights.subarray(0, count),
    totalAdjacencyWeight: total,
    selfLoopWeight: g.selfLoopWeight,
  }
}

/** Sorts ids[0..n) ascending: insertion sort for short rows, native typed sort otherwise. */
function sortAscending(ids: Int32Array, n: number): void {
  if (n > 24) {
    ids.subarray(0, n).sort()
    return
  }
  for (let i = 1; i < n; i++) {
    const x = ids[i]
    let j = i - 1
    while (j >= 0 && ids[j] > x) {
      ids[j + 1] = ids[j]
      j--
    }
    ids[j + 1] = x
  }
}
