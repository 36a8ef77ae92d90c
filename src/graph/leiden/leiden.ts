/**
 * Flat Leiden (Traag, Waltman, van Eck 2019, "From Louvain to Leiden"): local moving, refinement,
 * aggregation on the refined partition with the unrefined one as start, repeated until local moving
 * leaves every node alone. Compat mode matches graspologic-native's `leiden` (spec leiden.md §5.2–5.3);
 * quality mode adds igraph's no-merge guard and iterates until the partition is stable (no node moves,
 * or an iteration gains less than a relative tolerance).
 */
import { InternalError } from '../../errors.js'
import { aggregateNetwork } from './aggregate.js'
import { moveNodesFast } from './local-moving.js'
import { networkModularity } from './modularity.js'
import type { CsrNetwork } from './network.js'
import { refinePartition } from './refinement.js'
import { XorShift128 } from './rng.js'
import type { Scratch } from './scratch.js'

export interface LeidenParams {
  readonly compat: boolean
  readonly resolution: number
  readonly randomness: number
  readonly useModularity: boolean
  /** Compat: exact number of Leiden iterations. Quality: cap on iterations until stable. */
  readonly iterations: number
  /**
   * Quality mode only: stop once an iteration raises the quality by at most this fraction of it
   * (0: only when an iteration moves no node).
   */
  readonly tolerance: number
  /** Quality mode, networks of at most RESTART_MAX_NODES nodes: runs of the top level, best kept. */
  readonly restarts: number
}

export interface FlatPartition {
  /** Community per node, compact ids 0..count−1. */
  readonly membership: Int32Array
  readonly count: number
}

/** Aggregation depth beyond which the reference's unguarded recursion is treated as stuck. */
const MAX_DEPTH = 1000

/** Larger networks run once: a run costs more there, and one poor draw weighs less among many communities. */
const RESTART_MAX_NODES = 5000

/**
 * The top-level run of a clustering. Iterating until stable still ends, now and then, in a stable
 * local optimum (karate: 5 of 20,000 seeds stop at Q 0.398 instead of its optimum 0.4198). On a small
 * network, where a run takes milliseconds, quality mode runs `params.restarts` times (the later runs
 * from streams seeded off `rng`) and keeps the highest modularity (the first on ties), so a poor
 * result needs that many poor draws in a row.
 * Compat mode and CPM run once, as the reference does.
 */
export function runLeidenBest(
  g: CsrNetwork,
  params: LeidenParams,
  rng: XorShift128,
  s: Scratch,
  start: Int32Array | undefined,
): FlatPartition {
  let best = runLeiden(g, params, rng, s, start)
  // A started run is not restarted: the start is already a good partition, and the best of several
  // runs from it is the one that moved furthest from it (an update wants the one that moved least).
  if (start !== undefined || params.compat || !params.useModularity || g.nodeCount > RESTART_MAX_NODES) return best
  let bestQuality = networkModularity(g, best.membership, params.resolution)
  for (let run = 1; run < params.restarts; run++) {
    const candidate = runLeiden(g, params, new XorShift128(rng.nextU32()), s, start)
    const quality = networkModularity(g, candidate.membership, params.resolution)
    if (quality > bestQuality + 1e-12) {
      best = candidate
      bestQuality = quality
    }
  }
  return best
}

/**
 * Runs Leiden on `g` (nodeCount ≥ 1), consuming `rng` in the reference order, from singletons or
 * from `start` (compact ids, each community connected: see seed.ts). From a start, quality mode
 * measures the first iteration's gain against the start's quality, so a start that is already about
 * as good as one iteration makes it is left after that iteration instead of being optimised further.
 */
export function runLeiden(
  g: CsrNetwork,
  params: LeidenParams,
  rng: XorShift128,
  s: Scratch,
  start: Int32Array | undefined,
): FlatPartition {
  const n = g.nodeCount
  const network = params.useModularity ? g : withUnitNodeWeights(g)
  // Scaled resolution r (spec §3): γ / 2(m + s) for modularity, γ for CPM; computed once.
  const r = params.useModularity
    ? params.resolution / (2 * (g.totalAdjacencyWeight / 2 + g.selfLoopWeight))
    : params.resolution
  const membership = new Int32Array(n)
  for (let v = 0; v < n; v++) membership[v] = start === undefined ? v : start[v]
  let count = start === undefined ? n : communityCount(start)
  // Only zero-weight edges: every gain is 0·∞, so no move can be an improvement; keep singletons.
  if (!Number.isFinite(r)) return { membership, count }
  // CPM always uses paper refinement: the reference's CPM path is broken (spec §5.8).
  const exactRefinement = params.compat && params.useModularity
  if (params.compat) {
    for (let it = 0; it < params.iterations; it++) {
      count = improve(network, membership, r, params, exactRefinement, rng, s).nodeCount
    }
    return { membership, count }
  }
  const previous = membership.slice()
  let quality = start === undefined ? quotientQuality(network, network, r) : partitionQuality(network, membership, r)
  for (let it = 1; ; it++) {
    const top = improve(network, membership, r, params, false, rng, s)
    count = top.nodeCount
    if (it === params.iterations || samePartition(previous, membership, n, s)) break
    const next = quotientQuality(network, top, r)
    if (next - quality <= params.tolerance * Math.abs(next)) break
    quality = next
    previous.set(membership)
  }
  return { membership, count }
}

/**
 * One Leiden iteration starting from `membership` (compact ids). Returns the last aggregate network
 * (a view valid until the next call), whose nodes are the resulting communities.
 */
function improve(
  g0: CsrNetwork,
  membership: Int32Array,
  r: number,
  params: LeidenParams,
  exactRefinement: boolean,
  rng: XorShift128,
  s: Scratch,
): CsrNetwork {
  const parts: Int32Array[] = []
  const maps: Int32Array[] = []
  let g = g0
  let p = membership
  for (let depth = 0; ; depth++) {
    if (depth > MAX_DEPTH) throw new InternalError('Leiden did not converge: aggregation depth limit reached')
    const count = moveNodesFast(g, p, r, rng, s, params.compat).count
    if (count >= g.nodeCount) break
    const ref = refinePartition(g, p, count, r, params.randomness, rng, s, exactRefinement, depth)
    parts.push(p)
    // Depth d reads g from one aggregate buffer and writes depth d+1 into the other.
    const target = s.aggregates[depth % 2]
    if (!params.compat && ref.refinedCount === g.nodeCount) {
      // igraph's guard: refinement merged nothing, so aggregate on the unrefined partition.
      maps.push(p)
      g = aggregateNetwork(g, p, count, s, target, params.compat)
      const next = s.blockBuffer(depth, count)
      for (let i = 0; i < count; i++) next[i] = i
      p = next
    } else {
      maps.push(ref.refined)
      g = aggregateNetwork(g, ref.refined, ref.refinedCount, s, target, params.compat)
      p = ref.blockOf
    }
  }
  for (let i = parts.length - 1; i >= 0; i--) {
    const upper = parts[i]
    const map = maps[i]
    for (let v = 0, n = upper.length; v < n; v++) upper[v] = p[map[v]]
    p = upper
  }
  return g
}

function communityCount(membership: Int32Array): number {
  let k = 0
  for (const c of membership) if (c + 1 > k) k = c + 1
  return k
}

/** True when a and b group the nodes identically (labels may differ). */
function samePartition(a: Int32Array, b: Int32Array, n: number, s: Scratch): boolean {
  const ab = s.map
  const ba = s.unused
  for (let i = 0; i < n; i++) {
    ab[i] = -1
    ba[i] = -1
  }
  for (let v = 0; v < n; v++) {
    const x = a[v]
    const y = b[v]
    if (ab[x] === -1 && ba[y] === -1) {
      ab[x] = y
      ba[y] = x
    } else if (ab[x] !== y || ba[y] !== x) {
      return false
    }
  }
  return true
}

/**
 * The quality Leiden optimises, in edge-weight units and doubled: Σ_c [2·e_c − r·W_c²] (e_c internal
 * edge weight, W_c total node weight); modularity is this divided by 2m, so relative changes agree.
 * Read off `top`, a network whose nodes are the communities of g0 (aggregation keeps only the
 * weight between nodes): O(communities) instead of a pass over g0.
 */
function quotientQuality(g0: CsrNetwork, top: CsrNetwork, r: number): number {
  const { nodeWeights } = top
  let penalty = 0
  for (let c = 0, k = top.nodeCount; c < k; c++) penalty += nodeWeights[c] * nodeWeights[c]
  return g0.totalAdjacencyWeight - top.totalAdjacencyWeight - r * penalty
}

/** quotientQuality of a membership read off g itself (a starting partition, before any aggregate exists). */
function partitionQuality(g: CsrNetwork, membership: Int32Array, r: number): number {
  const { offsets, neighbors, weights, nodeWeights } = g
  const total = new Float64Array(g.nodeCount)
  let cut = 0
  for (let v = 0, n = g.nodeCount; v < n; v++) {
    total[membership[v]] += nodeWeights[v]
    for (let e = offsets[v], end = offsets[v + 1]; e < end; e++)
      if (membership[neighbors[e]] !== membership[v]) cut += weights[e]
  }
  let penalty = 0
  for (const w of total) penalty += w * w
  return g.totalAdjacencyWeight - cut - r * penalty
}

function withUnitNodeWeights(g: CsrNetwork): CsrNetwork {
  return { ...g, nodeWeights: new Float64Array(g.nodeCount).fill(1) }
}
