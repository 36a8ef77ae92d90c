/**
 * A previous clustering projected onto the current network, with no Leiden run: every node keeps its
 * previous community, a community the network no longer holds together becomes its connected pieces,
 * and nodes without a previous community are placed one at a time where modularity gains most.
 */
import { InternalError } from '../../errors.js'
import type { FlatPartition } from './leiden.js'
import { networkModularity } from './modularity.js'
import type { CsrNetwork } from './network.js'
import { startingMembership, type StartingLabels } from './seed.js'

/**
 * At most this many nodes move to bring a projection within reach (each move re-scans the network):
 * a change that needs more is better served by Leiden started from the previous communities.
 */
const MAX_MOVES = 256

/**
 * `labels`: previous community per node (−1 = none). Unlabelled nodes are placed in breadth-first
 * order from the labelled ones (a component with none starts from its smallest id), each into the
 * community of an already placed neighbour with the largest positive modularity gain (the first such
 * neighbour on ties), else alone. A placed node never moves again, so every community stays connected.
 */
export function projectMembership(g: CsrNetwork, labels: StartingLabels, resolution: number): FlatPartition {
  const n = g.nodeCount
  const membership = startingMembership(g, labels)
  const { offsets, neighbors, weights, nodeWeights } = g
  // Resolution scaled by 2m, as modularity counts it (modularity.ts).
  const r = resolution / g.totalAdjacencyWeight
  const total = new Float64Array(n)
  for (let v = 0; v < n; v++) total[membership[v]] += nodeWeights[v]
  const placed = Uint8Array.from(labels, (label) => (label >= 0 ? 1 : 0))
  const linked = new Float64Array(n)
  const seen = new Uint8Array(n)
  const candidates: number[] = []
  for (const v of placementOrder(g, labels)) {
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const u = neighbors[e]
      if (placed[u] === 0) continue
      const c = membership[u]
      if (seen[c] === 0) {
        seen[c] = 1
        candidates.push(c)
      }
      linked[c] += weights[e]
    }
    let best = -1
    let bestGain = 0
    for (const c of candidates) {
      // Gain of joining c from being alone: w(v, c) − r·k_v·K_c (Leiden's move gain, scaled by 2m).
      const gain = linked[c] - r * nodeWeights[v] * total[c]
      if (Number.isFinite(gain) && gain > bestGain) {
        best = c
        bestGain = gain
      }
      linked[c] = 0
      seen[c] = 0
    }
    candidates.length = 0
    placed[v] = 1
    if (best < 0) continue
    total[membership[v]] -= nodeWeights[v]
    total[best] += nodeWeights[v]
    membership[v] = best
  }
  return compact(membership)
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
export function compact(membership: Int32Array): FlatPartition {
  const ids = new Map<number, number>()
  const out = new Int32Array(membership.length)
  for (let v = 0; v < membership.length; v++) {
    let id = ids.get(membership[v])
    if (id === undefined) ids.set(membership[v], (id = ids.size))
    out[v] = id
  }
  return { membership: out, count: ids.size }
}

/**
 * Single-node moves, the largest modularity gain first (ties: smallest node id), until the partition's
 * modularity reaches `target` or no move gains: the fewest moves that bring a projection within reach
 * of a clustering from scratch. A move may take a node to a neighbour's community or alone, never
 * out of a community it holds together, so every community stays connected. Returns the nodes moved.
 */
export function moveTowards(
  g: CsrNetwork,
  membership: Int32Array,
  resolution: number,
  target: number,
  maxMoves: number,
): Uint8Array {
  const n = g.nodeCount
  const moved = new Uint8Array(n)
  const twoM = g.totalAdjacencyWeight
  if (n === 0 || twoM === 0) return moved
  const { nodeWeights } = g
  const r = resolution / twoM
  // Ids up to 2n: a node moving alone takes a fresh one.
  const total = new Float64Array(2 * n)
  const size = new Int32Array(2 * n)
  for (let v = 0; v < n; v++) {
    total[membership[v]] += nodeWeights[v]
    size[membership[v]]++
  }
  let fresh = n
  let q = networkModularity(g, membership, resolution)
  const linked = new Float64Array(2 * n)
  for (let moves = 0; moves < maxMoves && q < target; moves++) {
    const candidates = bestMoves(g, membership, total, size, r, linked)
    const move = candidates.find((m) => size[membership[m.v]] === 1 || holdsWithout(g, membership, m.v))
    if (move === undefined) break
    const { v, to, gain } = move
    const from = membership[v]
    const dest = to < 0 ? fresh++ : to
    total[from] -= nodeWeights[v]
    size[from]--
    total[dest] += nodeWeights[v]
    size[dest]++
    membership[v] = dest
    moved[v] = 1
    q += (2 * gain) / twoM
  }
  return moved
}

/** Every node's best positive move (−1 = alone), largest gain first, ties by node id. */
function bestMoves(
  g: CsrNetwork,
  membership: Int32Array,
  total: Float64Array,
  size: Int32Array,
  r: number,
  linked: Float64Array,
): { v: number; to: number; gain: number }[] {
  const { offsets, neighbors, weights, nodeWeights } = g
  const out: { v: number; to: number; gain: number }[] = []
  const touched: number[] = []
  for (let v = 0; v < g.nodeCount; v++) {
    const own = membership[v]
    const k = nodeWeights[v]
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const c = membership[neighbors[e]]
      if (linked[c] === 0) touched.push(c)
      linked[c] += weights[e]
    }
    // Gain of v from `own` to c, in units of 2m·ΔQ/2: w(v,c) − w(v,own∖v) − r·k·(K_c − K_own∖v).
    const stay = linked[own] - r * k * (total[own] - k)
    let to = -1
    let best = size[own] > 1 ? -stay : 0
    for (const c of touched) {
      if (c !== own) {
        const gain = linked[c] - r * k * total[c] - stay
        if (gain > best) {
          best = gain
          to = c
        }
      }
    }
    for (const c of touched) linked[c] = 0
    touched.length = 0
    if (best > 1e-12 && (to >= 0 || size[own] > 1)) out.push({ v, to, gain: best })
  }
  return out.sort((a, b) => b.gain - a.gain || a.v - b.v)
}

/** True when v's community without v is still connected (v has at least one other member). */
function holdsWithout(g: CsrNetwork, membership: Int32Array, v: number): boolean {
  const { offsets, neighbors } = g
  const c = membership[v]
  let start = -1
  for (let e = offsets[v]; e < offsets[v + 1] && start < 0; e++)
    if (membership[neighbors[e]] === c) start = neighbors[e]
  if (start < 0) return false
  const seen = new Set<number>([v, start])
  const stack = [start]
  let members = 0
  for (let u = 0; u < g.nodeCount; u++) if (membership[u] === c) members++
  while (stack.length > 0) {
    const x = stack.pop() as number
    for (let e = offsets[x]; e < offsets[x + 1]; e++) {
      const u = neighbors[e]
      if (membership[u] === c && !seen.has(u)) {
        seen.add(u)
        stack.push(u)
      }
    }
  }
  return seen.size === members
}

/** A projection's level 0 within `target` modularity. */
export interface ProjectOptions {
  /** Level-0 modularity single-node moves aim for (moveTowards); −Infinity: none. */
  readonly target: number
}

/**
 * Level 0 projected from `starts[0]` and moved towards the target; a moved node has no previous
 * sub-community (its labels below level 0 are dropped), so the splits place it among its new peers.
 */
export function projectTop(
  g: CsrNetwork,
  starts: ReadonlyArray<StartingLabels | undefined>,
  resolution: number,
  target: number,
): { top: FlatPartition; starts: Array<StartingLabels | undefined> } {
  const top0 = starts[0]
  if (top0 === undefined) throw new InternalError('projection without a level-0 start')
  const membership = projectMembership(g, top0, resolution).membership
  const moved = moveTowards(g, membership, resolution, target, Math.min(g.nodeCount, MAX_MOVES))
  const below = starts.map((labels, level) => {
    if (level === 0 || labels === undefined) return labels
    const copy = Int32Array.from(labels)
    for (let v = 0; v < copy.length; v++) if (moved[v] === 1) copy[v] = -1
    return copy
  })
  return { top: compact(membership), starts: below }
}
