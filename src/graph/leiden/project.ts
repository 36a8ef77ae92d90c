/**
 * A previous clustering projected onto the current network, with no Leiden run: every node keeps its
 * previous community, a community the network no longer holds together becomes its connected pieces,
 * and nodes without a previous community are placed one at a time where modularity gains most.
 */
import { InternalError } from '../../errors.js'
import type { FlatPartition } from './leiden.js'
import type { CsrNetwork } from './network.js'
import { moveTowards } from './project-moves.js'
import { startingMembership, type StartingLabels } from './seed.js'
import { SubnetworkBuilder } from './subnetwork.js'

/**
 * At most this many changes bring a projection within reach, and at most about WORK adjacency entries
 * are scanned for them (each change re-scans the network: 256 changes on a 100k-node graph took a
 * minute): a change that needs more is better served by Leiden on the communities it reached.
 */
const MAX_MOVES = 256
const WORK = 2e7

/**
 * `labels`: previous community per node (−1 = none). `units` groups the unlabelled nodes (a group
 * per unlabelled node, −1 = a unit of its own; see newNodeGroups): each unit is placed as a whole, in
 * breadth-first order from the labelled nodes (a component with none starts from its smallest id),
 * into the community of already placed neighbours with the largest positive modularity gain (the
 * first on ties), else as a community of its own. Placed nodes never move again, and a unit is
 * connected, so every community stays connected.
 */
export function projectMembership(
  g: CsrNetwork,
  labels: StartingLabels,
  resolution: number,
  units?: Int32Array,
): FlatPartition {
  const n = g.nodeCount
  const membership = startingMembership(g, labels)
  const { offsets, neighbors, weights, nodeWeights } = g
  // Resolution scaled by 2m, as modularity counts it (modularity.ts).
  const r = resolution / g.totalAdjacencyWeight
  const total = new Float64Array(n)
  for (let v = 0; v < n; v++) total[membership[v]] += nodeWeights[v]
  const placed = Uint8Array.from(labels, (label) => (label >= 0 ? 1 : 0))
  const unitMembers = membersOfUnits(units, n)
  const linked = new Float64Array(n)
  const candidates: number[] = []
  for (const first of placementOrder(g, labels)) {
    if (placed[first] === 1) continue
    const unit = units === undefined || units[first] < 0 ? [first] : (unitMembers.get(units[first]) ?? [first])
    let degree = 0
    for (const v of unit) {
      degree += nodeWeights[v]
      for (let e = offsets[v]; e < offsets[v + 1]; e++) {
        const u = neighbors[e]
        if (placed[u] === 0) continue
        const c = membership[u]
        if (linked[c] === 0) candidates.push(c)
        linked[c] += weights[e]
      }
    }
    let best = -1
    let bestGain = 0
    for (const c of candidates) {
      // Gain of joining c from being alone: w(U, c) − r·K_U·K_c (Leiden's move gain, scaled by 2m).
      const gain = linked[c] - r * degree * total[c]
      if (Number.isFinite(gain) && gain > bestGain) {
        best = c
        bestGain = gain
      }
      linked[c] = 0
    }
    candidates.length = 0
    const to = best < 0 ? membership[first] : best
    for (const v of unit) {
      placed[v] = 1
      total[membership[v]] -= nodeWeights[v]
      total[to] += nodeWeights[v]
      membership[v] = to
    }
  }
  return compact(membership)
}

function membersOfUnits(units: Int32Array | undefined, n: number): Map<number, number[]> {
  const out = new Map<number, number[]>()
  if (units === undefined) return out
  for (let v = 0; v < n; v++) {
    if (units[v] < 0) continue
    const list = out.get(units[v])
    if (list) list.push(v)
    else out.set(units[v], [v])
  }
  return out
}

/**
 * Communities among the unlabelled nodes alone, by `cluster` on the network they induce (a new
 * document's entities are mostly tied to each other: placed one by one, the first would join an old
 * community and pull the rest in after it). Group per node; −1 for labelled nodes and new nodes
 * with no edge to another new node.
 */
function newNodeGroups(g: CsrNetwork, labels: StartingLabels, cluster: (sub: CsrNetwork) => FlatPartition): Int32Array {
  const n = g.nodeCount
  const groups = new Int32Array(n).fill(-1)
  const isNew = Int32Array.from(labels, (label) => (label < 0 ? 1 : 0))
  const members = Int32Array.from({ length: n }, (_, v) => v).filter((v) => isNew[v] === 1)
  if (members.length < 2) return groups
  const sub = new SubnetworkBuilder(new Int32Array(n).fill(-1))
  sub.build(g, members, 0, members.length, isNew, 1)
  if (sub.nodeCount === 0) return groups
  const { membership } = cluster(sub.view())
  for (let i = 0; i < sub.nodeCount; i++) groups[sub.localToGlobal[i]] = membership[i]
  return groups
}

/** Unlabelled nodes breadth-first from the labelled ones, then from each remaining one by id. */
function placementOrder(g: CsrNetwork, labels: StartingLabels): number[] {
  const n = g.nodeCount
  const { offsets, neighbors } = g
  const visited = Uint8Array.from(labels, (label) => (label >= 0 ? 1 : 0))
  const queue: number[] = []
  for (let v = 0; v < n; v++) if (visited[v] === 1) queue.push(v)
  const order: number[] = []
  let head = 0
  const drain = () => {
    while (head < queue.length) {
      const v = queue[head++]
      for (let e = offsets[v]; e < offsets[v + 1]; e++) {
        const u = neighbors[e]
        if (visited[u] === 1) continue
        visited[u] = 1
        order.push(u)
        queue.push(u)
      }
    }
  }
  drain()
  for (let v = 0; v < n; v++) {
    if (visited[v] === 1) continue
    visited[v] = 1
    order.push(v)
    queue.push(v)
    drain()
  }
  return order
}

/** Community ids renumbered 0..k−1 in order of each community's smallest node id. */
function compact(membership: Int32Array): FlatPartition {
  const ids = new Map<number, number>()
  const out = new Int32Array(membership.length)
  for (let v = 0; v < membership.length; v++) {
    let id = ids.get(membership[v])
    if (id === undefined) ids.set(membership[v], (id = ids.size))
    out[v] = id
  }
  return { membership: out, count: ids.size }
}

/** A projection's level 0 within `target` modularity. */
export interface ProjectOptions {
  /** Level-0 modularity the changes of moveTowards aim for; −Infinity: none. */
  readonly target: number
  /** Leiden on the communities the change reached when the moves fall short (region.ts). */
  readonly reclusterReached: boolean
}

/**
 * Level 0 projected from `starts[0]` (new nodes grouped by `cluster` first) and moved towards the target; a moved node has no previous
 * sub-community (its labels below level 0 are dropped), so the splits place it among its new peers.
 */
export function projectTop(
  g: CsrNetwork,
  starts: ReadonlyArray<StartingLabels | undefined>,
  resolution: number,
  target: number,
  cluster: (sub: CsrNetwork) => FlatPartition,
): { top: FlatPartition; starts: Array<StartingLabels | undefined> } {
  const top0 = starts[0]
  if (top0 === undefined) throw new InternalError('projection without a level-0 start')
  const membership = projectMembership(g, top0, resolution, newNodeGroups(g, top0, cluster)).membership
  const blocks = previousBlocks(g, starts)
  const moved = moveTowards(
    g,
    membership,
    resolution,
    target,
    Math.min(g.nodeCount, MAX_MOVES, Math.max(8, Math.floor(WORK / (g.neighbors.length + g.nodeCount)))),
    blocks,
  )
  const below = starts.map((labels, level) => {
    if (level === 0 || labels === undefined) return labels
    const copy = Int32Array.from(labels)
    for (let v = 0; v < copy.length; v++) if (moved[v] === 1) copy[v] = -1
    return copy
  })
  return { top: compact(membership), starts: below }
}

/**
 * Each node's deepest previous sub-community (below level 0) as connected pieces of the network, −1
 * for nodes with none: the groups a projection may move between level-0 communities as a whole.
 */
function previousBlocks(g: CsrNetwork, starts: ReadonlyArray<StartingLabels | undefined>): Int32Array {
  const n = g.nodeCount
  const leaf = new Int32Array(n).fill(-1)
  starts.forEach((labels, level) => {
    if (level === 0 || labels === undefined) return
    for (let v = 0; v < n; v++) if (labels[v] >= 0) leaf[v] = level * (n + 1) + labels[v]
  })
  const pieces = startingMembership(g, leaf)
  for (let v = 0; v < n; v++) if (leaf[v] < 0) pieces[v] = -1
  return pieces
}
