/**
 * Hierarchical wrapper with graspologic-native `hierarchical_leiden` semantics (spec leiden.md §7):
 * Leiden on the whole network gives level 0; every cluster with ≥ maxClusterSize members is
 * re-clustered alone, breadth-first by level, children numbered after the largest id so far.
 */
import { runLeiden, runLeidenBest, type FlatPartition, type LeidenParams } from './leiden.js'
import { permuteNetwork, type CsrNetwork } from './network.js'
import type { XorShift128 } from './rng.js'
import { Scratch } from './scratch.js'
import { projectMembership, projectTop, type ProjectOptions } from './project.js'
import { networkModularity } from './modularity.js'
import { reclusterReached } from './region.js'
import { restoreGroups } from './restore.js'
import { startingMembership, type StartingLabels } from './seed.js'
import type { SubnetworkBuilder } from './subnetwork.js'

/** Column-wise entries in output order (objects are made once, at the API boundary). */
class HierarchyColumns {
  length = 0
  node = new Int32Array(1024)
  cluster = new Int32Array(1024)
  level = new Int32Array(1024)
  parent = new Int32Array(1024)
  isFinal = new Uint8Array(1024)

  push(node: number, cluster: number, level: number, parent: number): void {
    if (this.length === this.node.length) this.grow()
    const i = this.length++
    this.node[i] = node
    this.cluster[i] = cluster
    this.level[i] = level
    this.parent[i] = parent
    this.isFinal[i] = 1
  }

  private grow(): void {
    const cap = this.node.length * 2
    const node = new Int32Array(cap)
    const cluster = new Int32Array(cap)
    const level = new Int32Array(cap)
    const parent = new Int32Array(cap)
    const isFinal = new Uint8Array(cap)
    node.set(this.node)
    cluster.set(this.cluster)
    level.set(this.level)
    parent.set(this.parent)
    isFinal.set(this.isFinal)
    Object.assign(this, { node, cluster, level, parent, isFinal })
  }
}

/**
 * The modularity a restoration of unchanged communities may cost, relative to the run's: half the
 * 1 % an update allows against a clustering from scratch, so a restored run that started about as
 * good as one from scratch stays within it.
 */
const RESTORE_TOLERANCE = 0.005

/**
 * `splitParams` drive the re-clustering of large clusters (quality mode may iterate less there).
 * `starts[level]`, when given, holds each node's previous community at that level: level 0 starts
 * from it, and a split at that level starts from its members' previous sub-communities. `keep`
 * (node ids per group) are level-0 communities to put back after the run (restore.ts). With
 * `project`, the starts are projected instead of run from (project.ts): level 0 is its projection, and
 * a split whose members had sub-communities at its level is their projection when that gives two or
 * more; every other split runs Leiden as without `project`, and the size rule is the same.
 */
export function hierarchicalPartition(
  g: CsrNetwork,
  params: LeidenParams,
  splitParams: LeidenParams,
  maxClusterSize: number,
  rng: XorShift128,
  starts: ReadonlyArray<StartingLabels | undefined> = [],
  keep: ReadonlyArray<Int32Array> = [],
  project?: ProjectOptions,
): HierarchyColumns {
  const n = g.nodeCount
  if (n === 0) return new HierarchyColumns()
  const s = new Scratch(n)
  const topStart = starts[0]
  if (project !== undefined && topStart !== undefined) {
    const cluster = (sub: CsrNetwork) => runLeidenBest(sub, params, rng, s, undefined)
    const projected = projectTop(g, starts, params.resolution, project.target, cluster)
    let top = projected.top
    if (project.reclusterReached && networkModularity(g, top.membership, params.resolution) < project.target) {
      const run = (region: CsrNetwork, start: Int32Array) => runLeiden(region, params, rng, s, start)
      top = reclusterReached(g, top.membership, keep, run)
    }
    return splitLevels(g, top, {
      params: splitParams,
      maxClusterSize,
      rng,
      s,
      starts: projected.starts,
      project: true,
    })
  }
  let top = runLeidenBest(g, params, rng, s, topStart === undefined ? undefined : startingMembership(g, topStart))
  if (keep.length > 0 && params.useModularity)
    top = restoreGroups(g, top.membership, keep, params.resolution, RESTORE_TOLERANCE)
  return splitLevels(g, top, { params: splitParams, maxClusterSize, rng, s, starts, project: false })
}

interface SplitContext {
  params: LeidenParams
  maxClusterSize: number
  rng: XorShift128
  s: Scratch
  starts: ReadonlyArray<StartingLabels | undefined>
  project: boolean
}

/** Level 0's entries, then every cluster of ≥ maxClusterSize members split, level by level. */
function splitLevels(g: CsrNetwork, top: FlatPartition, ctx: SplitContext): HierarchyColumns {
  const { params: splitParams, maxClusterSize, rng, s, starts, project } = ctx
  const out = new HierarchyColumns()
  const n = g.nodeCount
  const sizes: number[] = new Array<number>(top.count).fill(0)
  for (let v = 0; v < n; v++) sizes[top.membership[v]]++
  const entryStart: number[] = []
  const entryEnd: number[] = []
  const noSplit: boolean[] = new Array<boolean>(top.count).fill(false)
  // Level 0: sorted by (cluster, node id).
  const byCluster = membersByCluster(top.membership, n, top.count)
  for (let c = 0; c < top.count; c++) {
    entryStart.push(out.length)
    for (let i = byCluster.start[c]; i < byCluster.start[c + 1]; i++) out.push(byCluster.members[i], c, 0, -1)
    entryEnd.push(out.length)
  }
  // The splits work on a copy renumbered in that same order, so every cluster (and each of its
  // descendants) is a contiguous block of memory. Within a cluster the new ids keep the original
  // order and rows keep their original neighbour order, so the subnetworks are built identically.
  const oldOf = byCluster.members
  const ordered = permuteNetwork(g, oldOf)
  const current = new Int32Array(n)
  for (let x = 0; x < n; x++) current[x] = top.membership[oldOf[x]]
  let nextId = top.count
  for (let level = 1; ; level++) {
    const queue: number[] = []
    for (let c = 0; c < nextId; c++) {
      if (sizes[c] >= maxClusterSize && sizes[c] > 1 && !noSplit[c]) queue.push(c)
    }
    if (queue.length === 0) break
    const groups = membersByCluster(current, n, nextId)
    for (const c of queue) {
      const sub = s.splitSub
      sub.build(ordered, groups.members, groups.start[c], groups.start[c + 1], current, c)
      if (sub.nodeCount === 0) {
        noSplit[c] = true
        continue
      }
      const labels = starts[level]
      const projected = project && labels !== undefined ? projectSplit(sub, oldOf, labels, splitParams) : undefined
      const split =
        projected ??
        runLeiden(sub.view(), splitParams, rng, s, labels === undefined ? undefined : splitStart(sub, oldOf, labels))
      if (split.count <= 1) {
        noSplit[c] = true
        continue
      }
      const offset = nextId
      const localGroups = membersByCluster(split.membership, sub.nodeCount, split.count)
      const l2g = sub.localToGlobal
      for (let lc = 0; lc < split.count; lc++) {
        const id = offset + lc
        entryStart.push(out.length)
        for (let i = localGroups.start[lc]; i < localGroups.start[lc + 1]; i++) {
          const x = l2g[localGroups.members[i]]
          out.push(oldOf[x], id, level, c)
          current[x] = id
        }
        entryEnd.push(out.length)
        sizes.push(localGroups.start[lc + 1] - localGroups.start[lc])
        noSplit.push(false)
      }
      out.isFinal.fill(0, entryStart[c], entryEnd[c])
      sizes[c] -= sub.nodeCount
      nextId = offset + split.count
    }
  }
  return out
}

/** The starting partition of a split: its members' previous communities at the split's level. */
function splitStart(sub: SubnetworkBuilder, oldOf: Int32Array, labels: StartingLabels): Int32Array {
  const local = new Int32Array(sub.nodeCount)
  const l2g = sub.localToGlobal
  for (let i = 0; i < local.length; i++) local[i] = labels[oldOf[l2g[i]]]
  return startingMembership(sub.view(), local)
}

/**
 * A split as the projection of its members' previous sub-communities; undefined when none of them had
 * one shared with another member (the cluster was not split before) or the projection leaves a
 * single community.
 */
function projectSplit(sub: SubnetworkBuilder, oldOf: Int32Array, labels: StartingLabels, params: LeidenParams) {
  const local = new Int32Array(sub.nodeCount)
  const l2g = sub.localToGlobal
  const count = new Map<number, number>()
  for (let i = 0; i < local.length; i++) {
    local[i] = labels[oldOf[l2g[i]]]
    count.set(local[i], (count.get(local[i]) ?? 0) + 1)
  }
  // A member whose previous sub-community has no other member here came alone from elsewhere: placed anew.
  let labelled = false
  for (let i = 0; i < local.length; i++) {
    if (local[i] >= 0 && count.get(local[i]) === 1) local[i] = -1
    if (local[i] >= 0) labelled = true
  }
  if (!labelled) return undefined
  const split = projectMembership(sub.view(), local, params.resolution)
  return split.count > 1 ? split : undefined
}

/** Counting sort of nodes by cluster id; members ascending within a cluster. */
function membersByCluster(membership: Int32Array, n: number, k: number): { start: Int32Array; members: Int32Array } {
  const start = new Int32Array(k + 1)
  for (let v = 0; v < n; v++) start[membership[v] + 1]++
  for (let c = 0; c < k; c++) start[c + 1] += start[c]
  const fill = start.slice(0, k)
  const members = new Int32Array(n)
  for (let v = 0; v < n; v++) members[fill[membership[v]]++] = v
  return { start, members }
}
