/**
 * Newman–Girvan modularity with resolution γ: Q = Σ_c [ L_c/m − γ·(K_c/2m)² ], evaluated on the
 * network as the clustering sees it (first weight of a repeated pair, self-loops left out).
 */
import type { CsrNetwork } from './network.js'

/** Modularity of a membership (community per node id, ids ≥ 0) in O(n + m). */
export function networkModularity(g: CsrNetwork, membership: Int32Array, resolution = 1): number {
  const n = g.nodeCount
  const twoM = g.totalAdjacencyWeight
  if (n === 0 || twoM === 0) return 0
  let k = 0
  for (let v = 0; v < n; v++) if (membership[v] + 1 > k) k = membership[v] + 1
  const inside = new Float64Array(k)
  const degree = new Float64Array(k)
  const { offsets, neighbors, weights } = g
  for (let v = 0; v < n; v++) {
    const c = membership[v]
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++) {
      degree[c] += weights[e]
      if (membership[neighbors[e]] === c) inside[c] += weights[e]
    }
  }
  let q = 0
  for (let c = 0; c < k; c++) q += inside[c] / twoM - resolution * (degree[c] / twoM) ** 2
  return q
}
