/**
 * Few changes that bring a projected partition (project.ts) within reach of a clustering from
 * scratch: one at a time a node moved, a previous sub-community moved as a block, or two adjacent
 * communities merged; the smallest change that reaches the target when there is one, else the one
 * gaining most modularity, until the target is reached or no change gains.
 */
import { networkModularity } from './modularity.js'
import type { CsrNetwork } from './network.js'

interface Change {
  /** Node moved (≥ 0), −1 for a merge of `from` into `to`, −2 for a block move (`block`). */
  readonly v: number
  readonly block?: number
  /** A block's members. */
  readonly members?: readonly number[]
  readonly from: number
  /** Destination community; −1 = the node alone. */
  readonly to: number
  /** 2m·ΔQ / 2: w(v, to) − w(v, from∖v) − r·k·(K_to − K_from∖v), or w(A, B) − r·K_A·K_B for a merge. */
  readonly gain: number
  /** How many nodes change community (a merge: the smaller community's). */
  readonly moves: number
}

/** Deterministic order among equal gains: kind, node, block, communities. */
const tie = (a: Change, b: Change) => b.v - a.v || (a.block ?? 0) - (b.block ?? 0) || a.from - b.from || a.to - b.to

/**
 * Mutates `membership` (ids < nodeCount) by up to `maxChanges` changes; returns the nodes moved alone
 * (a merge moves none: both communities keep their members together). `blocks` (block per node, −1 =
 * none) are groups that may move as one, previous sub-communities: a block keeps its members
 * together and so its place in the hierarchy below. Nothing leaves a community it holds together, so
 * every community stays connected.
 */
export function moveTowards(
  g: CsrNetwork,
  membership: Int32Array,
  resolution: number,
  target: number,
  maxChanges: number,
  blocks?: Int32Array,
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
    const all = [
      ...allMerges(g, membership, total, size, r),
      ...(blocks === undefined ? [] : allBlockMoves(g, membership, blocks, total, size, r)),
      ...allMoves(g, membership, total, size, r, linked),
    ].sort((a, b) => b.gain - a.gain || tie(a, b))
    const valid = (c: Change) =>
      c.v === -1 ||
      (c.v >= 0 && (size[c.from] === 1 || holdsWithout(g, membership, size, [c.v]))) ||
      (c.v === -2 && blockHolds(g, membership, size, c.members ?? []))
    const needed = ((target - q) * twoM) / 2
    // Gains of different changes seldom add up to more than their sum: short of it, the target is out of reach.
    if (all.reduce((sum, c) => sum + c.gain, 0) < needed) break
    const enough = all.filter((c) => c.gain >= needed).sort((a, b) => a.moves - b.moves || b.gain - a.gain || tie(a, b))
    const change = enough.find(valid) ?? all.find(valid)
    if (change === undefined) break
    if (change.v === -2) {
      const members = change.members ?? []
      const dest = change.to < 0 ? fresh++ : change.to
      for (const v of members) {
        total[change.from] -= nodeWeights[v]
        total[dest] += nodeWeights[v]
        membership[v] = dest
      }
      size[change.from] -= members.length
      size[dest] += members.length
    } else if (change.v < 0) {
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
      // A node moved alone leaves its block.
      if (blocks !== undefined) blocks[change.v] = -1
    }
    q += (2 * change.gain) / twoM
  }
  return moved
}

/** Every node's best positive move (to −1 = alone). */
function allMoves(
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
    if (best > 1e-12 && (to >= 0 || size[own] > 1)) out.push({ v, from: own, to, gain: best, moves: 1 })
  }
  return out
}

/** Every merge of two adjacent communities with a positive gain (the smaller one moving into the other). */
function allMerges(g: CsrNetwork, membership: Int32Array, total: Float64Array, size: Int32Array, r: number): Change[] {
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
  const out: Change[] = []
  for (const [key, w] of between) {
    const [a, b] = [Math.floor(key / span), key % span]
    const gain = w - r * total[a] * total[b]
    const [from, to] = size[b] <= size[a] ? [b, a] : [a, b]
    if (gain > 1e-12) out.push({ v: -1, from, to, gain, moves: size[from] })
  }
  return out
}

/** True when the community of `group` (all in one community, not all of it) is still connected without them. */
function holdsWithout(g: CsrNetwork, membership: Int32Array, size: Int32Array, group: ReadonlyArray<number>): boolean {
  const { offsets, neighbors } = g
  const c = membership[group[0]]
  const seen = new Set<number>(group)
  let start = -1
  for (const v of group) {
    for (let e = offsets[v]; e < offsets[v + 1] && start < 0; e++) {
      const u = neighbors[e]
      if (membership[u] === c && !seen.has(u)) start = u
    }
  }
  if (start < 0) return false
  seen.add(start)
  const stack = [start]
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
  return seen.size === size[c]
}

/** True when `members` are connected among themselves. */
function connectedAmong(g: CsrNetwork, members: readonly number[]): boolean {
  const inside = new Set(members)
  const seen = new Set([members[0]])
  const stack = [members[0]]
  while (stack.length > 0) {
    const x = stack.pop() as number
    for (let e = g.offsets[x]; e < g.offsets[x + 1]; e++) {
      const u = g.neighbors[e]
      if (inside.has(u) && !seen.has(u)) {
        seen.add(u)
        stack.push(u)
      }
    }
  }
  return seen.size === members.length
}

/** Every block's best positive move (a block of ≥ 2 nodes, not its whole community, to a neighbouring community or alone). */
function allBlockMoves(
  g: CsrNetwork,
  membership: Int32Array,
  blocks: Int32Array,
  total: Float64Array,
  size: Int32Array,
  r: number,
): Change[] {
  const { offsets, neighbors, weights, nodeWeights } = g
  const byBlock = new Map<number, { members: number[]; degree: number; links: Map<number, number> }>()
  for (let v = 0; v < g.nodeCount; v++) {
    const b = blocks[v]
    if (b < 0) continue
    let info = byBlock.get(b)
    if (info === undefined) byBlock.set(b, (info = { members: [], degree: 0, links: new Map() }))
    info.members.push(v)
    info.degree += nodeWeights[v]
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const u = neighbors[e]
      if (blocks[u] === b) continue
      const c = membership[u]
      info.links.set(c, (info.links.get(c) ?? 0) + weights[e])
    }
  }
  const options: Change[] = []
  for (const [block, { members, degree, links }] of byBlock) {
    const own = membership[members[0]]
    if (members.length < 2 || members.length >= size[own] || members.some((v) => membership[v] !== own)) continue
    const stay = (links.get(own) ?? 0) - r * degree * (total[own] - degree)
    let to = -1
    let best = -stay
    for (const [c, w] of links) {
      const gain = w - r * degree * total[c] - stay
      if (c !== own && gain > best) {
        best = gain
        to = c
      }
    }
    if (best > 1e-12) options.push({ v: -2, block, members, from: own, to, gain: best, moves: members.length })
  }
  return options
}

/** A block may move when it is connected and its community holds together without it. */
function blockHolds(g: CsrNetwork, membership: Int32Array, size: Int32Array, members: readonly number[]): boolean {
  return members.length > 0 && connectedAmong(g, members) && holdsWithout(g, membership, size, members)
}
