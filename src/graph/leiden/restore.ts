/**
 * After a run started from a previous clustering: previous communities that the change did not reach
 * are put back as they were when the run merged them or traded members, as long as modularity loses
 * at most a small fraction in total. Each carve-out is priced from the members' rows only, so the
 * whole pass is O(n + m).
 */
import type { FlatPartition } from './leiden.js'
import type { CsrNetwork } from './network.js'
import { startingMembership } from './seed.js'

/**
 * `groups`: node ids of each community to restore, in priority order. A group that is already a
 * community, or is not connected on its own, is left alone. Communities that lose members to a
 * restored group and fall apart are split into their connected pieces (which only raises modularity).
 */
export function restoreGroups(
  g: CsrNetwork,
  membership: Int32Array,
  groups: ReadonlyArray<Int32Array>,
  resolution: number,
  tolerance: number,
): FlatPartition {
  const n = g.nodeCount
  const twoM = g.totalAdjacencyWeight
  const { offsets, neighbors, weights } = g
  const label = Int32Array.from(membership)
  const k = new Float64Array(n)
  const total = new Float64Array(n + groups.length)
  const inside = new Float64Array(n + groups.length)
  const size = new Int32Array(n + groups.length)
  for (let v = 0; v < n; v++) {
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      k[v] += weights[e]
      if (label[neighbors[e]] === label[v]) inside[label[v]] += weights[e]
    }
    total[label[v]] += k[v]
    size[label[v]]++
  }
  const q = (inTotal: number, kTotal: number) => inTotal / twoM - resolution * (kTotal / twoM) ** 2
  let quality = 0
  for (let c = 0; c < n; c++) if (size[c] > 0) quality += q(inside[c], total[c])
  const floor = quality - tolerance * Math.abs(quality)
  const inGroup = new Uint8Array(n)
  groups.forEach((group, i) => {
    if (twoM === 0 || isCommunity(group, label, size)) return
    for (const v of group) inGroup[v] = 1
    const change = connectedWithin(g, group, inGroup) ? carveOut(g, group, label, inGroup, k) : undefined
    for (const v of group) inGroup[v] = 0
    if (change === undefined) return
    let delta = q(change.groupInside, change.groupTotal)
    for (const [c, d] of change.lost) {
      delta += q(inside[c] - d.inside, total[c] - d.total) - q(inside[c], total[c])
    }
    if (quality + delta < floor) return
    quality += delta
    const id = n + i
    for (const [c, d] of change.lost) {
      inside[c] -= d.inside
      total[c] -= d.total
      size[c] -= d.size
    }
    for (const v of group) label[v] = id
    inside[id] = change.groupInside
    total[id] = change.groupTotal
    size[id] = group.length
  })
  const restored = startingMembership(g, label)
  let count = 0
  for (const c of restored) if (c + 1 > count) count = c + 1
  return { membership: restored, count }
}

function isCommunity(group: Int32Array, label: Int32Array, size: Int32Array): boolean {
  const c = label[group[0]]
  return size[c] === group.length && group.every((v) => label[v] === c)
}

/**
 * What moving `group` into a community of its own takes from each community it leaves (inside
 * weight, counted both ways as in modularity, and total degree) and what it holds itself.
 */
function carveOut(g: CsrNetwork, group: Int32Array, label: Int32Array, inGroup: Uint8Array, k: Float64Array) {
  const { offsets, neighbors, weights } = g
  const lost = new Map<number, { inside: number; total: number; size: number }>()
  let groupInside = 0
  let groupTotal = 0
  for (const v of group) {
    const c = label[v]
    let d = lost.get(c)
    if (d === undefined) lost.set(c, (d = { inside: 0, total: 0, size: 0 }))
    d.total += k[v]
    d.size++
    groupTotal += k[v]
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const u = neighbors[e]
      if (inGroup[u] === 1) groupInside += weights[e]
      // Pairs v–u inside c: twice when u stays in c (v→u and u→v), once when u leaves too (its own
      // row counts the other direction).
      if (label[u] === c) d.inside += inGroup[u] === 1 ? weights[e] : 2 * weights[e]
    }
  }
  return { lost, groupInside, groupTotal }
}

function connectedWithin(g: CsrNetwork, group: Int32Array, inGroup: Uint8Array): boolean {
  const { offsets, neighbors } = g
  const seen = new Set<number>([group[0]])
  const stack = [group[0]]
  while (stack.length > 0) {
    const v = stack.pop() as number
    for (let e = offsets[v]; e < offsets[v + 1]; e++) {
      const u = neighbors[e]
      if (inGroup[u] === 1 && !seen.has(u)) {
        seen.add(u)
        stack.push(u)
      }
    }
  }
  return seen.size === group.length
}
