/**
 * cluster_graph.min_community_size (seed design 001): communities smaller than the minimum are
 * folded into the community of the same level and parent they share the most edge weight with;
 * one linked to no such community is dropped (its members keep the communities of the levels
 * above, and its sub-communities go with it). Leiden itself has no size floor, so this runs on
 * its output, level by level from the top, which keeps the result deterministic.
 */
import type { WeightedEdge } from '../../graph/leiden/index.js'
import type { Cluster } from './cluster-graph.js'

export interface SizeFloorResult {
  readonly clusters: Cluster[]
  /** Communities folded into a neighbour. */
  readonly merged: number
  /** Communities without a neighbour of the same parent, removed. */
  readonly dropped: number
}

export function applyMinCommunitySize(
  clusters: ReadonlyArray<Cluster>,
  edges: ReadonlyArray<WeightedEdge>,
  minSize: number,
): SizeFloorResult {
  if (minSize <= 1) return { clusters: [...clusters], merged: 0, dropped: 0 }
  const adjacency = adjacencyOf(edges)
  // Old cluster id → the id it now belongs to (itself, a merge target, or null once dropped).
  const renamed = new Map<number, number | null>()
  const out: Cluster[] = []
  let merged = 0
  let dropped = 0
  for (const level of [...new Set(clusters.map((c) => c.level))].sort((a, b) => a - b)) {
    const current = clusters
      .filter((c) => c.level === level)
      .map((c) => ({ ...c, nodes: [...c.nodes], parent: c.parent < 0 ? c.parent : (renamed.get(c.parent) ?? null) }))
      .filter((c): c is Cluster => {
        if (c.parent !== null) return true
        renamed.set(c.cluster, null)
        return false
      })
    const result = foldLevel(current, adjacency, minSize, renamed)
    merged += result.merged
    dropped += result.dropped
    out.push(...result.kept)
  }
  return { clusters: out, merged, dropped }
}

/** One level: smallest communities first (ties by id), each folded into its best-linked sibling. */
function foldLevel(
  level: Cluster[],
  adjacency: ReadonlyMap<string, ReadonlyMap<string, number>>,
  minSize: number,
  renamed: Map<number, number | null>,
): { kept: Cluster[]; merged: number; dropped: number } {
  const byId = new Map(level.map((c) => [c.cluster, c]))
  const communityOf = new Map<string, number>()
  for (const c of level) for (const node of c.nodes) communityOf.set(node, c.cluster)
  for (const c of level) renamed.set(c.cluster, c.cluster)
  let merged = 0
  let dropped = 0
  const small = level
    .filter((c) => c.nodes.length < minSize)
    .sort((a, b) => a.nodes.length - b.nodes.length || a.cluster - b.cluster)
  for (const c of small) {
    const live = byId.get(c.cluster)
    if (live === undefined || live.nodes.length >= minSize) continue
    const target = bestNeighbour(live, byId, communityOf, adjacency)
    byId.delete(live.cluster)
    if (target === undefined) {
      for (const node of live.nodes) communityOf.delete(node)
      renamed.set(live.cluster, null)
      dropped++
      continue
    }
    target.nodes.push(...live.nodes)
    for (const node of live.nodes) communityOf.set(node, target.cluster)
    for (const [old, now] of renamed) if (now === live.cluster) renamed.set(old, target.cluster)
    merged++
  }
  return { kept: level.filter((c) => byId.has(c.cluster)), merged, dropped }
}

/** The sibling (same parent) sharing the most edge weight with `c`; ties go to the lower id. */
function bestNeighbour(
  c: Cluster,
  byId: ReadonlyMap<number, Cluster>,
  communityOf: ReadonlyMap<string, number>,
  adjacency: ReadonlyMap<string, ReadonlyMap<string, number>>,
): Cluster | undefined {
  const weightTo = new Map<number, number>()
  for (const node of c.nodes) {
    for (const [other, weight] of adjacency.get(node) ?? []) {
      const id = communityOf.get(other)
      if (id === undefined || id === c.cluster || byId.get(id)?.parent !== c.parent) continue
      weightTo.set(id, (weightTo.get(id) ?? 0) + weight)
    }
  }
  let best: number | undefined
  for (const [id, weight] of weightTo) {
    const bestWeight = best === undefined ? -1 : (weightTo.get(best) ?? 0)
    if (weight > bestWeight || (weight === bestWeight && best !== undefined && id < best)) best = id
  }
  return best === undefined ? undefined : byId.get(best)
}

function adjacencyOf(edges: ReadonlyArray<WeightedEdge>): Map<string, Map<string, number>> {
  const out = new Map<string, Map<string, number>>()
  const add = (a: string, b: string, w: number) => {
    let m = out.get(a)
    if (m === undefined) out.set(a, (m = new Map()))
    m.set(b, (m.get(b) ?? 0) + w)
  }
  for (const [source, target, weight] of edges) {
    if (source === target) continue
    add(source, target, weight)
    add(target, source, weight)
  }
  return out
}
