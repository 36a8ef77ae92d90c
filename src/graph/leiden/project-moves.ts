/**
 * The fewest changes that bring a projected partition (project.ts) within reach of a clustering from
 * scratch: one node moved or two adjacent communities merged at a time, the largest modularity gain
 * first, until the target modularity is reached or no change gains.
 */
import { networkModularity } from './modularity.js'
import type { CsrNetwork } from './network.js'

interface Change {
  /** Node moved (≥ 0) or −1 for a merge of `from` into `to`. */
  readonly v: number
  readonly from: number
  /** Destination community; −1 = the node alone. */
  readonly to: number
  /** 2m·ΔQ / 2: w(v, to) − w(v, from∖v) − r·k·(K_to − K_from∖v), or w(A, B) − r·K_A·K_B for a merge. */
  readonly gain: number
}

/**
 * Mutates `membership` (ids < nodeCount) by up to `maxChanges` changes; returns the nodes moved alone
 * (a merge moves none: both communities keep their members together). A node never leaves a community
 * it holds together, so every community stays connected.
 */
export function moveTowards(
  g: CsrNetwork,
  membership: Int32Array,
  resolution: number,
  target: number,
  maxChanges: number,
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
  for (let changes = 0; changes < maxChanges && q < target; changes++) {
    const merge = bestMerge(g, membership, total, r)
    const move = bestMoves(g, membership, total, size, r, linked).find(
      (m) => m.gain > (merge?.gain ?? 0) && (size[m.from] === 1 || holdsWithout(g, membership, m.v)),
    )
    const change = move ?? merge
    if (change === undefined) break
    if (change.v < 0) {
      for (let u = 0; u < n; u++) if (membership[u] === change.from) membership[u] = change.to
      total[change.to] += total[change.from]
      size[change.to] += size[change.from]
      total[change.from] = 0
      size[change.from] = 0
    } else {
      const dest = change.to < 0 ? fresh++ : change.to
      total[change.from] -= nodeWeights[change.v]
      size[change.from]--
      total[dest] += nodeWeights[change.v]
      size[dest]++
      membership[change.v] = dest
      moved[change.v] = 1
    }
    q += (2 * change.gain) / twoM
  }
  return moved
}

/** Every node's best positive move (to −1 = alone), largest gain first, ties by node id. */
function bestMoves(
  g: CsrNetwork,
  membership: Int32Array,
  total: Float64Array,
  size: Int32Array,
  r: number,
  linked: Float64Array,
): Change[] {
  const { offsets, neighbors, weights, nodeWeights } = g
  const out: Change[] = []
  const touched: number[] = []
  for (let v = 0; v < g.nodeCount; v++) {
    const own = membership[v]
    const k = nodeWeights[v]
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const c = membership[neighbors[e]]
      if (linked[c] === 0) touched.push(c)
      linked[c] += weights[e]
    }
    const stay = linked[own] - r * k * (total[own] - k)
    let to = -1
    let best = size[own] > 1 ? -stay : 0
    for (const c of touched) {
      const gain = linked[c] - r * k * total[c] - stay
      if (c !== own && gain > best) {
        best = gain
        to = c
      }
    }
    for (const c of touched) linked[c] = 0
    touched.length = 0
    if (best > 1e-12 && (to >= 0 || size[own] > 1)) out.push({ v, from: own, to, gain: best })
  }
  return out.sort((a, b) => b.gain - a.gain || a.v - b.v)
}

/** The merge of two adjacent communities with the largest positive gain (ties: smallest ids), if any. */
function bestMerge(g: CsrNetwork, membership: Int32Array, total: Float64Array, r: number): Change | undefined {
  const { offsets, neighbors, weights } = g
  const between = new Map<number, number>()
  const span = 2 * g.nodeCount
  for (let v = 0; v < g.nodeCount; v++) {
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const [a, b] = [membership[v], membership[neighbors[e]]]
      // Each pair of communities once, from its smaller id; each edge seen from both ends counts once.
      if (a < b) between.set(a * span + b, (between.get(a * span + b) ?? 0) + weights[e])
    }
  }
  let best: Change | undefined
  for (const [key, w] of between) {
    const [a, b] = [Math.floor(key / span), key % span]
    const gain = w - r * total[a] * total[b]
    if (gain > 1e-12 && (best === undefined || gain > best.gain || (gain === best.gain && key < keyOf(best, span))))
      best = { v: -1, from: b, to: a, gain }
  }
  return best
}

const keyOf = (c: Change, span: number) => c.to * span + c.from

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
