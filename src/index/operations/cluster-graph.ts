/**
 * cluster_graph (spec reference-index.md §5.9 steps 1–5): prepares the relationship edges the way
 * GraphRAG does, runs hierarchical Leiden and returns the clusters of every level.
 */
import { stableLargestConnectedComponent } from '../../graph/components/index.js'
import { compareCodePoints } from '../../text/names.js'
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

interface ClusterGraphResult {
  readonly clusters: Cluster[]
  /** Node pairs left out because their weight is ≤ 0 (see `prepareEdges`). */
  readonly nonPositiveEdges: number
}

/** Clusters per level (ascending), each level in first-seen order, like GraphRAG's cluster_graph. */
export function clusterGraph(
  relationships: ReadonlyArray<ClusterEdge>,
  options: ClusterGraphOptions,
): ClusterGraphResult {
  const { edges, nonPositiveEdges } = prepareEdges(relationships, options.use_lcc)
  return { clusters: edges.length === 0 ? [] : clusterEdges(edges, options), nonPositiveEdges }
}

function clusterEdges(edges: WeightedEdge[], options: ClusterGraphOptions): Cluster[] {
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
 *
 * Pairs whose weight is ≤ 0 are left out before the LCC (the reference passes them on; spec
 * leiden.md §11.12 leaves them to us). Such an edge carries no affinity: modularity has no meaning
 * for a negative weight (the fast method's PMI weights can be negative), and a zero weight adds
 * nothing to it, yet graspologic's refinement spots a new candidate community by its accumulated
 * weight being 0, so a zero-weight edge would list its community twice. Leaving both out means a
 * node or component held to the graph only by such edges gets no community.
 */
export function prepareEdges(
  relationships: ReadonlyArray<ClusterEdge>,
  useLcc: boolean,
): { edges: WeightedEdge[]; nonPositiveEdges: number } {
  const lastByPair = new Map<string, { source: string; target: string; weight: number }>()
  for (const r of relationships) {
    const [source, target] = compareCodePoints(r.source, r.target) <= 0 ? [r.source, r.target] : [r.target, r.source]
    const key = `${source}\u0000${target}`
    // Deleting first moves the pair to its last occurrence, as pandas' keep="last" does.
    lastByPair.delete(key)
    lastByPair.set(key, { source, target, weight: r.weight ?? 1 })
  }
  let rows = [...lastByPair.values()].filter((r) => !(Number(r.weight) <= 0))
  const nonPositiveEdges = lastByPair.size - rows.length
  if (useLcc) rows = stableLargestConnectedComponent(rows)
  const edges = rows
    .map((r) => [r.source, r.target, Number(r.weight)] as const)
    .sort((a, b) => compareCodePoints(a[0], b[0]) || compareCodePoints(a[1], b[1]) || a[2] - b[2])
  return { edges, nonPositiveEdges }
}
