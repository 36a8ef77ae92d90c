/**
 * cluster_graph (spec reference-index.md §5.9 steps 1–5): prepares the relationship edges the way
 * GraphRAG does, runs hierarchical Leiden and returns the clusters of every level.
 */
import { compareCodePoints, stableLargestConnectedComponent } from '../../graph/components/index.js'
import { hierarchicalLeiden, type LeidenMode, type WeightedEdge } from '../../graph/leiden/index.js'

export interface ClusterGraphOptions {
  readonly max_cluster_size: number
  readonly use_lcc: boolean
  readonly seed: number
  readonly mode: LeidenMode
  readonly max_iterations: number
}

/** The edge fields clustering reads; `weight` undefined means 1.0 (no weight column). */
export interface ClusterEdge {
  readonly source: string
  readonly target: string
  readonly weight?: number
}

export interface Cluster {
  readonly level: number
  readonly cluster: number
  /** Parent cluster id, −1 at level 0. */
  readonly parent: number
  /** Node titles in the clustering's entry order. */
  readonly nodes: string[]
}

/** Clusters per level (ascending), each level in first-seen order, like GraphRAG's cluster_graph. */
export function clusterGraph(relationships: ReadonlyArray<ClusterEdge>, options: ClusterGraphOptions): Cluster[] {
  const edges = prepareEdges(relationships, options.use_lcc)
  if (edges.length === 0) return []
  const entries = hierarchicalLeiden(edges, {
    maxClusterSize: options.max_cluster_size,
    seed: options.seed,
    mode: options.mode,
    maxIterations: options.mode === 'quality' ? options.max_iterations : undefined,
  })
  const parentOf = new Map<number, number>()
  const levels = new Map<number, Map<number, string[]>>()
  for (const e of entries) {
    parentOf.set(e.cluster, e.parentCluster ?? -1)
    let level = levels.get(e.level)
    if (!level) levels.set(e.level, (level = new Map()))
    const nodes = level.get(e.cluster)
    if (nodes) nodes.push(e.node)
    else level.set(e.cluster, [e.node])
  }
  const out: Cluster[] = []
  for (const level of [...levels.keys()].sort((a, b) => a - b)) {
    for (const [cluster, nodes] of levels.get(level) ?? []) {
      out.push({ level, cluster, parent: parentOf.get(cluster) ?? -1, nodes })
    }
  }
  return out
}

/**
 * Steps 1–3: orient each pair (smaller name first) keeping the last row of a repeated pair, then
 * optionally the stable LCC, then the sorted (source, target, weight) list that fixes node ids.
 */
export function prepareEdges(relationships: ReadonlyArray<ClusterEdge>, useLcc: boolean): WeightedEdge[] {
  const lastByPair = new Map<string, { source: string; target: string; weight: number }>()
  for (const r of relationships) {
    const [source, target] = compareCodePoints(r.source, r.target) <= 0 ? [r.source, r.target] : [r.target, r.source]
    const key = `${source}\u0000${target}`
    // Deleting first moves the pair to its last occurrence, as pandas' keep="last" does.
    lastByPair.delete(key)
    lastByPair.set(key, { source, target, weight: r.weight ?? 1 })
  }
  let rows = [...lastByPair.values()]
  if (useLcc) rows = stableLargestConnectedComponent(rows)
  return rows
    .map((r) => [r.source, r.target, Number(r.weight)] as const)
    .sort((a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]) || a[2] - b[2])
}
