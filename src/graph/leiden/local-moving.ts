/**
 * Fast local moving (Traag et al. 2019, §"Fast local move"), in graspologic-native's exact order
 * (spec leiden.md §5.4): FIFO queue seeded by a shuffle, an empty-community candidate taken from a
 * stack of unused ids, strict-improvement moves, only stable neighbours re-queued.
 */
import type { CsrNetwork } from './network.js'
import { fisherYates, naiveShuffle } from './partition.js'
import type { XorShift128 } from './rng.js'
import type { Scratch } from './scratch.js'

interface LocalMoveResult {
  moved: boolean
  /** Number of non-empty communities; ids are compact 0..k−1 afterwards when `moved`. */
  count: number
}

/**
 * Moves nodes of `g` between communities of `membership` (ids < nodeCount) while the quality
 * improves. `r` is the scaled resolution. Mutates `membership`.
 */
export function moveNodesFast(
  g: CsrNetwork,
  membership: Int32Array,
  r: number,
  rng: XorShift128,
  s: Scratch,
  exactShuffle: boolean,
): LocalMoveResult {
  const n = g.nodeCount
  const { offsets, neighbors, weights, nodeWeights } = g
  // Per-community weight (even slot) and neighbour-weight accumulator (odd slot; −1 = unused) sit
  // side by side: the loop over neighbours is bound by memory latency, so one miss serves both.
  const cd = s.communityData
  const cc = s.communityCount
  const unused = s.unused
  let top = tallyCommunities(g, membership, s)
  const queue = shuffledQueue(s, n, rng, exactShuffle)
  const stable = s.stable
  stable.fill(0, 0, n)
  let head = 0
  let size = n

  const touched = s.touched
  let moved = false
  while (size > 0) {
    const v = queue[head]
    head = head + 1 === n ? 0 : head + 1
    size--
    stable[v] = 1
    const cur = membership[v]
    const wv = nodeWeights[v]
    cd[2 * cur] -= wv
    if (--cc[cur] === 0) unused[top++] = cur

    let nt = 0
    for (let e = offsets[v], eEnd = offsets[v + 1]; e < eEnd; e++) {
      const c = membership[neighbors[e]]
      const slot = 2 * c + 1
      const a = cd[slot]
      if (a < 0) {
        cd[slot] = weights[e]
        touched[nt++] = c
      } else {
        cd[slot] = a + weights[e]
      }
    }
    let best = cur
    const aCur = cd[2 * cur + 1]
    let bestQ = Math.max(0, aCur) - wv * cd[2 * cur] * r
    const empty = unused[top - 1]
    const qEmpty = 0 - wv * cd[2 * empty] * r
    if (qEmpty > bestQ) {
      best = empty
      bestQ = qEmpty
    }
    for (let i = 0; i < nt; i++) {
      const c2 = 2 * touched[i]
      const q = cd[c2 + 1] - wv * cd[c2] * r
      if (q > bestQ) {
        best = touched[i]
        bestQ = q
      }
      cd[c2 + 1] = -1
    }
    cd[2 * best] += wv
    cc[best]++
    if (best === empty) top--
    if (best !== cur) {
      membership[v] = best
      moved = true
      size = requeueNeighbours(g, v, membership, stable, queue, head, size)
    }
  }
  const count = compactIds(membership, cc, s, n, moved)
  return { moved, count }
}

/**
 * Puts v's stable neighbours outside its new community at the tail of the circular queue (they may
 * now gain by following it) and returns the queue's new size.
 */
function requeueNeighbours(
  g: CsrNetwork,
  v: number,
  membership: Int32Array,
  stable: Scratch['stable'],
  queue: Scratch['queue'],
  head: number,
  size: number,
): number {
  const { offsets, neighbors, nodeCount: n } = g
  const best = membership[v]
  for (let e = offsets[v], eEnd = offsets[v + 1]; e < eEnd; e++) {
    const u = neighbors[e]
    if (stable[u] === 1 && membership[u] !== best) {
      stable[u] = 0
      let tail = head + size
      if (tail >= n) tail -= n
      queue[tail] = u
      size++
    }
  }
  return size
}

/**
 * Fills each community's weight and size from `membership`, clears the neighbour-weight slots, and
 * stacks the empty community ids (lowest on top). Returns the stack's height.
 */
function tallyCommunities(g: CsrNetwork, membership: Int32Array, s: Scratch): number {
  const n = g.nodeCount
  const { nodeWeights } = g
  const cd = s.communityData
  const cc = s.communityCount
  for (let i = 0; i < n; i++) {
    cd[2 * i] = 0
    cd[2 * i + 1] = -1
    cc[i] = 0
  }
  for (let v = 0; v < n; v++) {
    const c = membership[v]
    cd[2 * c] += nodeWeights[v]
    cc[c]++
  }
  const unused = s.unused
  let top = 0
  for (let i = n - 1; i >= 0; i--) if (cc[i] === 0) unused[top++] = i
  return top
}

/** Every node once, in the order the seeded shuffle gives (graspologic-native's naive one when exact). */
function shuffledQueue(s: Scratch, n: number, rng: XorShift128, exactShuffle: boolean): Scratch['queue'] {
  const queue = s.queue
  for (let i = 0; i < n; i++) queue[i] = i
  if (exactShuffle) naiveShuffle(queue, 0, n, rng)
  else fisherYates(queue, 0, n, rng)
  return queue
}

/** The number of non-empty communities; after a move their ids are renumbered 0..k−1 in id order. */
function compactIds(
  membership: Int32Array,
  cc: Scratch['communityCount'],
  s: Scratch,
  n: number,
  moved: boolean,
): number {
  let count = 0
  if (moved) {
    const map = s.map
    for (let i = 0; i < n; i++) map[i] = cc[i] > 0 ? count++ : -1
    for (let v = 0; v < n; v++) membership[v] = map[membership[v]]
  } else {
    for (let i = 0; i < n; i++) if (cc[i] > 0) count++
  }
  return count
}
