/**
 * Hierarchical Leiden community detection (Traag, Waltman, van Eck 2019) on CSR typed arrays.
 * `compat` reproduces graspologic-native 1.2.x `hierarchical_leiden` bit for bit (what Microsoft
 * GraphRAG calls); `quality` (default) iterates the paper's algorithm until the partition is stable.
 */
import { InvalidGraphError } from '../../errors.js'
import { hierarchicalPartition } from './hierarchical.js'
import { runLeidenBest, type FlatPartition, type LeidenParams } from './leiden.js'
import { networkModularity } from './modularity.js'
import { buildNetwork, type CsrNetwork, type LabeledNetwork, type WeightedEdge } from './network.js'
import { XorShift128 } from './rng.js'
import { Scratch } from './scratch.js'

export { buildNetwork, networkModularity }
export { buildNetworkFromArrays } from './network.js'
export type { CsrNetwork, FlatPartition, LabeledNetwork, WeightedEdge }

export type LeidenMode = 'compat' | 'quality'

export interface LeidenOptions {
  /** Clusters with at least this many members are re-clustered one level down (hierarchical only). */
  maxClusterSize?: number
  /** Seed of the XorShift128 stream (GraphRAG: 0xDEADBEEF). */
  seed?: number
  mode?: LeidenMode
  /**
   * Compat: Leiden iterations (reference: 1). Quality: cap on iterations until the partition is
   * stable (default 10); re-clustered splits use at most 2.
   */
  maxIterations?: number
  /**
   * Quality mode: an iteration that raises the quality by at most this fraction of it counts as
   * stable and ends the run (default 2e-3; 0 = only an iteration that moves no node).
   */
  tolerance?: number
  /**
   * Quality mode, networks of at most 5,000 nodes: how many runs of the top level to make, keeping
   * the highest modularity (default 3; a single run sometimes settles in a stable local optimum).
   */
  restarts?: number
  resolution?: number
  /** θ of the refinement step. */
  randomness?: number
  /** Modularity (true) or CPM (false). */
  useModularity?: boolean
  /**
   * Hierarchical only: a previous clustering to start from, per level node → community (any
   * numbers; only equality within a level counts). Level 0's local moving starts from level 0's
   * communities, and a cluster re-clustered at level L starts from its members' level-L communities;
   * nodes absent from a level start alone there. Without it every run starts from singletons.
   */
  startingCommunities?: ReadonlyArray<ReadonlyMap<string, number>>
  /**
   * Hierarchical, modularity only: previous level-0 communities (node lists) the change did not
   * reach, put back after the level-0 run when it merged them or traded their members, while the
   * modularity lost stays within 0.5 % (earlier groups first). Groups naming a node the graph lacks
   * are ignored.
   */
  keepTogether?: ReadonlyArray<ReadonlyArray<string>>
  /**
   * Hierarchical, with startingCommunities: project the start instead of running Leiden from it
   * (project.ts): nodes keep their previous communities at every level, communities no longer
   * connected become their pieces, new nodes join a neighbour's community where modularity gains.
   * Clusters that must be split and had no previous sub-communities are split by Leiden as usual.
   */
  projection?: ProjectionOptions
}

export interface ProjectionOptions {
  /** Level-0 modularity that single-node moves, block moves and merges aim for (project-moves.ts); none by default. */
  readonly target?: number
  /**
   * Then, when still below the target: Leiden started from the projection on the nodes of the
   * communities that are not keepTogether groups (region.ts), the others staying as they are.
   */
  readonly reclusterReached?: boolean
}

export interface HierarchicalCluster {
  node: string
  cluster: number
  level: number
  parentCluster: number | null
  isFinal: boolean
}

const LEIDEN_DEFAULTS = Object.freeze({
  maxClusterSize: 10,
  seed: 0xdeadbeef,
  mode: 'quality',
  resolution: 1,
  randomness: 0.001,
  useModularity: true,
  // Relative gains per iteration on the bench's planted graphs (10k, 100k and 1M nodes): ~8e-2, then
  // 1.5–1.9e-3, then ~5e-4 and 1e-4–5e-4 each after that, every iteration costing 40–50% of the
  // first; nodes still move after 12 iterations. 2e-3 stops there after the third iteration: a fourth
  // added 0.0004 to Q for 12% of the hierarchical time at 100k. Karate's smallest gain before its
  // optimum is 2.35e-3 over seeds 0–5,999 (its last step, 0.4188 → 0.4198), so karate still gets there.
  tolerance: 2e-3,
  // Karate: one run in 4,000 ends in a local optimum (Q 0.398 instead of 0.4198); three cost a few ms.
  restarts: 3,
} as const) satisfies Required<
  Omit<LeidenOptions, 'maxIterations' | 'startingCommunities' | 'keepTogether' | 'projection'>
>

/** Iteration defaults per mode: the reference runs one; quality iterates until stable, at most 10 times. */
const DEFAULT_ITERATIONS: Record<LeidenMode, number> = { compat: 1, quality: 10 }

/**
 * Quality mode re-clusters large clusters with at most 2 iterations: the splits are many small
 * runs, and a third iteration there cost 20% more time on a 100k-node graph (keeping quality mode
 * within twice the compat time) for little gain on subgraphs that are mostly stable after two.
 */
const QUALITY_SPLIT_ITERATIONS = 2

/** Hierarchical clusters in graspologic's order: level 0 by (cluster, node id), then each split. */
export function hierarchicalLeiden(
  edges: ReadonlyArray<WeightedEdge>,
  options: LeidenOptions = {},
): HierarchicalCluster[] {
  return hierarchicalLeidenNetwork(buildNetwork(edges), options)
}

/** As `hierarchicalLeiden`, on a network already built (read only: benchmarks time the build apart, an update clusters one network several times). */
export function hierarchicalLeidenNetwork(labeled: LabeledNetwork, options: LeidenOptions = {}): HierarchicalCluster[] {
  const { params, seed, maxClusterSize } = resolveOptions(options)
  const splitIterations = params.compat ? params.iterations : Math.min(params.iterations, QUALITY_SPLIT_ITERATIONS)
  const splitParams = { ...params, iterations: splitIterations }
  const { labels } = labeled
  const starts = (options.startingCommunities ?? []).map((level) => startingLabels(labels, level))
  const rng = new XorShift128(seed)
  const keep = nodeGroups(labels, options.keepTogether ?? [])
  const project =
    options.projection === undefined
      ? undefined
      : {
          target: options.projection.target ?? Number.NEGATIVE_INFINITY,
          reclusterReached: options.projection.reclusterReached === true,
        }
  const cols = hierarchicalPartition(labeled.network, params, splitParams, maxClusterSize, rng, starts, keep, project)
  const result: HierarchicalCluster[] = new Array<HierarchicalCluster>(cols.length)
  for (let i = 0; i < cols.length; i++) {
    result[i] = {
      node: labels[cols.node[i]],
      cluster: cols.cluster[i],
      level: cols.level[i],
      parentCluster: cols.parent[i] < 0 ? null : cols.parent[i],
      isFinal: cols.isFinal[i] === 1,
    }
  }
  return result
}

/**
 * Each node's community in `level` as a dense label (−1 = absent); undefined when no node has one,
 * so that level runs exactly as without a start (restarts included).
 */
function startingLabels(labels: readonly string[], level: ReadonlyMap<string, number>): Int32Array | undefined {
  const dense = new Map<number, number>()
  const out = new Int32Array(labels.length)
  for (let v = 0; v < labels.length; v++) {
    const c = level.get(labels[v])
    if (c === undefined) {
      out[v] = -1
      continue
    }
    let id = dense.get(c)
    if (id === undefined) dense.set(c, (id = dense.size))
    out[v] = id
  }
  return dense.size === 0 ? undefined : out
}

/** Groups of labels as node ids; a group with a label the network lacks (or none) is dropped. */
function nodeGroups(labels: readonly string[], groups: ReadonlyArray<ReadonlyArray<string>>): Int32Array[] {
  const idOf = new Map(labels.map((label, v) => [label, v]))
  const out: Int32Array[] = []
  for (const group of groups) {
    const ids = group.map((label) => idOf.get(label))
    if (ids.length > 0 && ids.every((v) => v !== undefined)) out.push(Int32Array.from(ids as number[]))
  }
  return out
}

/** Flat Leiden on a built network: community per node id. */
export function leidenNetwork(network: CsrNetwork, options: LeidenOptions = {}): FlatPartition {
  const { params, seed } = resolveOptions(options)
  if (network.nodeCount === 0) return { membership: new Int32Array(0), count: 0 }
  return runLeidenBest(network, params, new XorShift128(seed), new Scratch(network.nodeCount), undefined)
}

/**
 * The level-0 modularity of `hierarchicalLeidenNetwork(labeled, options)` run from scratch (no start,
 * no groups kept), without re-clustering the large clusters below it: level 0 is the same flat run with
 * the same seed, and its communities are numbered as `labeledModularity` numbers them, so the sum is the
 * same to the last bit. An update measures its candidates against it (cluster-graph.ts).
 */
export function scratchLevelZeroModularity(labeled: LabeledNetwork, options: LeidenOptions = {}): number {
  const { network } = labeled
  // leidenNetwork reads no start, group or projection: it is the run from singletons.
  const top = leidenNetwork(network, options)
  return networkModularity(network, firstSeenNumbers(top.membership), options.resolution)
}

/** Communities renumbered 0, 1, … in the order nodes first show them. */
function firstSeenNumbers(membership: Int32Array): Int32Array {
  const dense = new Map<number, number>()
  const out = new Int32Array(membership.length)
  for (let v = 0; v < membership.length; v++) {
    let id = dense.get(membership[v])
    if (id === undefined) dense.set(membership[v], (id = dense.size))
    out[v] = id
  }
  return out
}

/**
 * Modularity of a node → community assignment over the edge list (repeated pairs: first weight;
 * self-loops ignored). Every node of the edges must be assigned.
 */
export function modularity(
  edges: ReadonlyArray<WeightedEdge>,
  communities: ReadonlyMap<string, number>,
  resolution = 1,
): number {
  return labeledModularity(buildNetwork(edges), communities, resolution)
}

/** As `modularity`, on a network already built from the edge list (read only: it can be built once for several calls). */
export function labeledModularity(
  { network, labels }: LabeledNetwork,
  communities: ReadonlyMap<string, number>,
  resolution = 1,
): number {
  const ids = new Map<number, number>()
  const membership = new Int32Array(network.nodeCount)
  for (let v = 0; v < labels.length; v++) {
    const c = communities.get(labels[v])
    if (c === undefined) throw new InvalidGraphError(`node ${labels[v]} has no community`)
    let id = ids.get(c)
    if (id === undefined) {
      id = ids.size
      ids.set(c, id)
    }
    membership[v] = id
  }
  return networkModularity(network, membership, resolution)
}

function resolveOptions(options: LeidenOptions): { params: LeidenParams; seed: number; maxClusterSize: number } {
  const o = { ...LEIDEN_DEFAULTS, ...stripUndefined(options) }
  const mode = o.mode
  if (mode !== 'compat' && mode !== 'quality') throw new InvalidGraphError(`unknown Leiden mode ${String(mode)}`)
  const iterations = options.maxIterations ?? DEFAULT_ITERATIONS[mode]
  requireInteger('maxClusterSize', o.maxClusterSize, 1)
  requireInteger('maxIterations', iterations, 1)
  requireInteger('seed', o.seed, 0)
  requireInteger('restarts', o.restarts, 1)
  if (!(o.resolution > 0 && Number.isFinite(o.resolution)))
    throw new InvalidGraphError('resolution must be a finite number > 0')
  if (!(o.randomness > 0 && Number.isFinite(o.randomness)))
    throw new InvalidGraphError('randomness must be a finite number > 0')
  if (!(o.tolerance >= 0 && o.tolerance < 1))
    throw new InvalidGraphError(`tolerance must be a number in [0, 1), got ${String(o.tolerance)}`)
  return {
    params: {
      compat: mode === 'compat',
      resolution: o.resolution,
      randomness: o.randomness,
      useModularity: o.useModularity,
      iterations,
      tolerance: o.tolerance,
      restarts: o.restarts,
    },
    seed: o.seed,
    maxClusterSize: o.maxClusterSize,
  }
}

function requireInteger(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min)
    throw new InvalidGraphError(`${name} must be an integer >= ${min}, got ${String(value)}`)
}

function stripUndefined(options: LeidenOptions): LeidenOptions {
  const out: LeidenOptions = {}
  for (const [k, v] of Object.entries(options)) if (v !== undefined) (out as Record<string, unknown>)[k] = v
  return out
}
