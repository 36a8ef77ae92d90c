/**
 * cluster_graph (spec reference-index.md §5.9 steps 1–5): prepares the relationship edges the way
 * GraphRAG does, runs hierarchical Leiden and returns the clusters of every level.
 */
import { type PreparedEdges, prepareEdgeColumns } from './cluster-edges.js'
import { applyMinCommunitySize } from './min-community-size.js'
import { type EdgeColumns, edgeColumns } from './relationship-columns.js'
import {
  buildNetworkFromArrays,
  hierarchicalLeidenNetwork,
  labeledModularity,
  type LabeledNetwork,
  scratchLevelZeroModularity,
  type LeidenMode,
  type LeidenOptions,
  type ProjectionOptions,
  type WeightedEdge,
} from '../../graph/leiden/index.js'

export interface ClusterGraphOptions {
  readonly max_cluster_size: number
  readonly use_lcc: boolean
  readonly seed: number
  readonly mode: LeidenMode
  readonly max_iterations: number
  /** Leiden resolution γ (default 1). */
  readonly resolution?: number
  /** Smaller communities are merged into a neighbour or dropped (min-community-size.ts); default 1 = off. */
  readonly min_community_size?: number
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

/** A previous clustering to start from (see LeidenOptions.startingCommunities and keepTogether). */
export interface ClusterStart {
  /** Per level, node → previous community. */
  readonly startingCommunities: ReadonlyArray<ReadonlyMap<string, number>>
  /** Previous level-0 communities the change did not reach, to put back when the run moved them. */
  readonly keepTogether?: ReadonlyArray<ReadonlyArray<string>>
}

/**
 * Which clustering an update used, most stable first: `kept` the previous one projected onto the
 * graph with the fewest moves and merges (project.ts), `local` that projection with Leiden run on the
 * communities the change reached (region.ts), `seeded` Leiden on the whole graph started from the
 * previous clustering, `from_scratch` Leiden from singletons.
 */
type ClusteringChoice = 'kept' | 'local' | 'seeded' | 'from_scratch'

/** The level-0 modularity of each candidate tried (in order, until one is within 1 %), and the one used. */
export interface ClusterSeeding {
  readonly clustering: ClusteringChoice
  readonly modularity: Readonly<Partial<Record<Exclude<ClusteringChoice, 'from_scratch'>, number>>>
  readonly scratchModularity: number
}

interface ClusterGraphResult {
  readonly clusters: Cluster[]
  /** Node pairs left out because their weight is ≤ 0 (see `prepareEdges`). */
  readonly nonPositiveEdges: number
  /** Present when a starting partition was given and the graph has edges. */
  readonly seeding?: ClusterSeeding
  /** Communities below cluster_graph.min_community_size merged into a neighbour or dropped. */
  readonly sizeFloor?: { readonly merged: number; readonly dropped: number }
}

/**
 * The largest relative loss of level-0 modularity a clustering started from the previous one may have
 * against a clustering from scratch of the same graph (the update issue's bar for "the same
 * communities as a re-index").
 */
const SEEDED_MODULARITY_TOLERANCE = 0.01

/**
 * Clusters per level (ascending), each level in first-seen order, like GraphRAG's cluster_graph.
 * With a previous clustering, the most stable candidate (ClusteringChoice) whose level-0 modularity
 * is within 1 % of a from-scratch run's is used.
 */
export function clusterGraph(
  relationships: ReadonlyArray<ClusterEdge>,
  options: ClusterGraphOptions,
  previous: ClusterStart | undefined,
): ClusterGraphResult {
  return clusterEdgeColumns(edgeColumns(relationships), options, previous)
}

/** As `clusterGraph`, on the relationships kept as columns. */
export function clusterEdgeColumns(
  relationships: EdgeColumns,
  options: ClusterGraphOptions,
  previous: ClusterStart | undefined,
): ClusterGraphResult {
  const prepared = prepareEdgeColumns(relationships, options.use_lcc)
  const result = clusterPrepared(prepared, options, previous)
  const minSize = options.min_community_size ?? 1
  if (minSize <= 1 || result.clusters.length === 0) return result
  const { clusters, merged, dropped } = applyMinCommunitySize(result.clusters, edgeTuples(prepared), minSize)
  return { ...result, clusters, sizeFloor: { merged, dropped } }
}

function clusterPrepared(
  prepared: PreparedEdges,
  options: ClusterGraphOptions,
  previous: ClusterStart | undefined,
): ClusterGraphResult {
  const { nonPositiveEdges } = prepared
  if (prepared.source.length === 0) return { clusters: [], nonPositiveEdges }
  // Built once: every candidate clusters the same network and is measured on it.
  const network = buildNetworkFromArrays({ ...prepared, names: prepared.labels })
  if (previous === undefined) return { clusters: clusterEdges(network, options, undefined), nonPositiveEdges }
  // Only the from-scratch level 0 is needed to judge the candidates: its splits (a sixth of the clustering
  // time of an update at 100k entities: 1 s of 6.5 s of CPU with the rows) are made only when no
  // candidate is within the tolerance.
  const scratchModularity = scratchLevelZeroModularity(network, leidenOptions(options))
  const floor = scratchModularity - SEEDED_MODULARITY_TOLERANCE * Math.abs(scratchModularity)
  // The projection aims a hair above the floor: modularity sums in another order can differ in the last bits.
  const target = floor + 1e-9 * Math.max(1, Math.abs(floor))
  const candidates = [
    ['kept', () => clusterEdges(network, options, previous, { target })],
    ['local', () => clusterEdges(network, options, previous, { target, reclusterReached: true })],
    ['seeded', () => clusterEdges(network, options, previous)],
  ] as const
  const modularity: Partial<Record<Exclude<ClusteringChoice, 'from_scratch'>, number>> = {}
  for (const [clustering, run] of candidates) {
    const clusters = run()
    modularity[clustering] = levelZeroModularity(network, clusters, options.resolution)
    if (modularity[clustering] >= floor) {
      return { clusters, nonPositiveEdges, seeding: { clustering, modularity, scratchModularity } }
    }
  }
  const scratch = clusterEdges(network, options, undefined)
  return { clusters: scratch, nonPositiveEdges, seeding: { clustering: 'from_scratch', modularity, scratchModularity } }
}

/** Modularity of the level-0 clusters over the clustered edges. */
function levelZeroModularity(network: LabeledNetwork, clusters: ReadonlyArray<Cluster>, resolution = 1): number {
  const communityOf = new Map<string, number>()
  for (const c of clusters) if (c.level === 0) for (const node of c.nodes) communityOf.set(node, c.cluster)
  return labeledModularity(network, communityOf, resolution)
}

function clusterEdges(
  network: LabeledNetwork,
  options: ClusterGraphOptions,
  previous: ClusterStart | undefined,
  projection?: ProjectionOptions,
): Cluster[] {
  const entries = hierarchicalLeidenNetwork(network, {
    ...leidenOptions(options),
    startingCommunities: previous?.startingCommunities,
    keepTogether: previous?.keepTogether,
    projection,
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

/** The Leiden options of cluster_graph's settings (the same for every candidate). */
function leidenOptions(options: ClusterGraphOptions): LeidenOptions {
  return {
    maxClusterSize: options.max_cluster_size,
    seed: options.seed,
    resolution: options.resolution,
    mode: options.mode,
    maxIterations: options.mode === 'quality' ? options.max_iterations : undefined,
  }
}

/**
 * Steps 1–3: orient each pair (smaller name first) keeping the last row of a repeated pair, then
 * optionally the stable LCC, then the sorted (source, target, weight) list that fixes node ids
 * (cluster-edges.ts makes it on columns).
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
  const prepared = prepareEdgeColumns(edgeColumns(relationships), useLcc)
  return { edges: edgeTuples(prepared), nonPositiveEdges: prepared.nonPositiveEdges }
}

function edgeTuples({ labels, source, target, weight }: PreparedEdges): WeightedEdge[] {
  return Array.from(source, (s, i) => [labels[s], labels[target[i]], weight[i]] as const)
}
