// The changes that bring a projected partition towards a target modularity (moveTowards,
// project-moves.ts): single nodes moved (into a neighbouring community or alone), previous
// sub-communities moved as blocks, adjacent communities merged; never a community left
// disconnected, never more changes than allowed, none once the target is reached.
import { describe, expect, it } from 'vitest'
import { buildNetwork, networkModularity, type CsrNetwork, type WeightedEdge } from '../../../src/graph/leiden/index.js'
import { moveTowards } from '../../../src/graph/leiden/project-moves.js'
import { startingMembership } from '../../../src/graph/leiden/seed.js'
import { cliqueEdges as clique, plantedPartition, ringWithStray, seededRandom } from './graphs.js'

/** True when the nodes of every community are connected among themselves. */
function communitiesConnected(g: CsrNetwork, membership: Int32Array): boolean {
  const seen = new Uint8Array(g.nodeCount)
  const pieces = new Map<number, number>()
  for (let root = 0; root < g.nodeCount; root++) {
    if (seen[root] === 1) continue
    const c = membership[root]!
    pieces.set(c, (pieces.get(c) ?? 0) + 1)
    seen[root] = 1
    const stack = [root]
    while (stack.length > 0) {
      const v = stack.pop()!
      for (let e = g.offsets[v]!; e < g.offsets[v + 1]!; e++) {
        const u = g.neighbors[e]!
        if (seen[u] === 0 && membership[u] === c) {
          seen[u] = 1
          stack.push(u)
        }
      }
    }
  }
  return [...pieces.values()].every((count) => count === 1)
}

describe('moveTowards', () => {
  it('on random graphs: communities stay connected, blocks stay whole, modularity only rises, changes are bounded', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const { network: g } = buildNetwork(plantedPartition(80, seed, { block: 10, mixing: 0.35, edgesPerNode: 3 }))
      const rand = seededRandom(seed)
      // A poor previous clustering (random labels, as connected pieces) with sub-communities inside it.
      const start = startingMembership(
        g,
        Int32Array.from({ length: g.nodeCount }, () => Math.floor(rand() * 4)),
      )
      const sub = Int32Array.from(start, (c) => c * 3 + Math.floor(rand() * 3))
      const blocks = startingMembership(g, sub)
      for (let v = 0; v < g.nodeCount; v++) if (rand() < 0.2) blocks[v] = -1
      const q0 = networkModularity(g, start)
      const maxChanges = 3 + (seed % 5) * 4
      const membership = Int32Array.from(start)
      const moved = moveTowards(g, membership, 1, q0 + 0.3, maxChanges, blocks)
      const q = networkModularity(g, membership)
      expect(q).toBeGreaterThan(q0)
      expect(communitiesConnected(g, membership)).toBe(true)
      expect(moved.reduce((sum, x) => sum + x, 0)).toBeLessThanOrEqual(maxChanges)
      // A block still standing has its members together; a node moved alone has left its block.
      const blockCommunity = new Map<number, number>()
      for (let v = 0; v < g.nodeCount; v++) {
        if (moved[v] === 1) expect(blocks[v]).toBe(-1)
        if (blocks[v]! < 0) continue
        const c = blockCommunity.get(blocks[v]!) ?? membership[v]!
        expect(membership[v]).toBe(c)
        blockCommunity.set(blocks[v]!, c)
      }
      // Ids below 2n: a node moved alone takes a fresh one.
      expect(Math.max(...membership)).toBeLessThan(2 * g.nodeCount)
    }
  })

  it('makes no change when the target is already met, and at most maxChanges', () => {
    const { network } = buildNetwork([...clique(['a', 'b', 'c']), ...clique(['d', 'e', 'f']), ['c', 'd', 1]])
    // Every node alone: far from the two triangles.
    const alone = () => Int32Array.from({ length: 6 }, (_, v) => v)
    const q0 = networkModularity(network, alone())
    for (const target of [q0, q0 - 0.1]) {
      const m = alone()
      moveTowards(network, m, 1, target, 10)
      expect([...m]).toEqual([...alone()])
    }
    const triangles = networkModularity(network, Int32Array.from([0, 0, 0, 1, 1, 1]))
    for (const maxChanges of [0, 1, 2, 3]) {
      const m = alone()
      const moved = moveTowards(network, m, 1, triangles, maxChanges)
      // Each change here is a node joining a neighbour's community (before a merge of equal gain).
      expect(new Set(m).size).toBe(6 - maxChanges)
      expect(moved.reduce((sum, x) => sum + x, 0)).toBe(maxChanges)
    }
    const m = alone()
    moveTowards(network, m, 1, triangles, 100)
    expect(networkModularity(network, m)).toBeCloseTo(triangles, 12)
  })

  it('merges two parts of a community: the smaller joins the larger, and no node counts as moved alone', () => {
    const p = ['p0', 'p1', 'p2', 'p3', 'p4']
    const q = ['q0', 'q1', 'q2', 'q3']
    const { network, labels } = buildNetwork([...clique(p), ...clique(q), ['p0', 'q0', 1]])
    const at = (m: Int32Array, names: readonly string[]) => names.map((v) => m[labels.indexOf(v)])
    const target = networkModularity(
      network,
      Int32Array.from(labels, (v) => (v.startsWith('p') ? 0 : 1)),
    )
    // {p0, p1} (id 0) and {p2, p3, p4} (id 1) were apart: one merge reaches the target, no single move does.
    const m = Int32Array.from(labels, (v) => (v === 'p0' || v === 'p1' ? 0 : v.startsWith('p') ? 1 : 2))
    const moved = moveTowards(network, m, 1, target, 10)
    expect(at(m, p)).toEqual([1, 1, 1, 1, 1])
    expect(at(m, q)).toEqual([2, 2, 2, 2])
    expect([...moved].every((x) => x === 0)).toBe(true)
    // Parts of equal size (a K4 cut in two): the one with the larger id joins the other.
    const k4 = buildNetwork([...clique(q), ...clique(p), ['p0', 'q0', 1]])
    const halves = Int32Array.from(k4.labels, (v) => (v === 'q0' || v === 'q1' ? 5 : v.startsWith('q') ? 3 : 7))
    const whole = networkModularity(
      k4.network,
      Int32Array.from(k4.labels, (v) => (v.startsWith('q') ? 0 : 1)),
    )
    expect([...moveTowards(k4.network, halves, 1, whole, 10)].every((x) => x === 0)).toBe(true)
    expect(q.map((v) => halves[k4.labels.indexOf(v)])).toEqual([3, 3, 3, 3])
  })

  it('gives each node moved alone a fresh community id, the node of the larger id first on equal gains', () => {
    // A K4 of weight 10 holding two pendant nodes by weight 1 each. 2m = 124; at r = 1/100 each
    // pendant gains by leaving (−(1 − r·1·123) > 0, then −(1 − r·1·122) > 0) and no clique node does
    // (30 − r·31·93 > 0). x comes first by id, y last.
    const a = ['a0', 'a1', 'a2', 'a3']
    const { network, labels } = buildNetwork([['x', 'a0', 1], ...clique(a, 10), ['y', 'a1', 1]])
    expect(labels).toEqual(['x', ...a, 'y'])
    const n = labels.length
    const resolution = 1.24
    const apart = Int32Array.from(labels, (v) => (v === 'x' ? 1 : v === 'y' ? 2 : 0))
    const target = networkModularity(network, apart, resolution)
    // All in community n − 1: the fresh ids (n, n + 1) must not clash with it.
    const m = new Int32Array(n).fill(n - 1)
    const moved = moveTowards(network, m, resolution, target - 1e-9, 10)
    const of = (v: string) => m[labels.indexOf(v)]!
    expect([...moved]).toEqual([1, 0, 0, 0, 0, 1])
    // Equal gains: y (the larger id) first.
    expect([of('y'), of('x')]).toEqual([n, n + 1])
    expect(a.map(of)).toEqual([n - 1, n - 1, n - 1, n - 1])
  })

  it('never moves a node out of a community it holds together', () => {
    // C = path a–b–c; b is tied to d by 4. At resolution 1.5 (2m = 12, r = 1/8) the only change
    // that gains is b into {d} (4 − 6·4/8 − (2 − 6·2/8) = 0.5), which would leave a and c apart.
    const { network, labels } = buildNetwork([
      ['a', 'b', 1],
      ['b', 'c', 1],
      ['b', 'd', 4],
    ])
    const start = Int32Array.from(labels, (v) => (v === 'd' ? 1 : 0))
    const m = Int32Array.from(start)
    const moved = moveTowards(network, m, 1.5, networkModularity(network, start, 1.5) + 0.05, 10)
    expect([...m]).toEqual([...start])
    expect([...moved]).toEqual([0, 0, 0, 0])
  })

  it('never moves a block out of a community it holds together', () => {
    // C = path a–b0–b1–c with the block {b0, b1} in the middle, tied to d by 3 + 3. 2m = 18, r = 0.08.
    // Moving the block into {d} gains 4 − 40r = 0.8 (nodes b0 or b1 alone: more), but would leave a
    // and c apart; the best change that keeps every community whole is d joining C (0.24).
    const { network, labels } = buildNetwork([
      ['a', 'b0', 1],
      ['b0', 'b1', 1],
      ['b1', 'c', 1],
      ['b0', 'd', 3],
      ['b1', 'd', 3],
    ])
    const start = Int32Array.from(labels, (v) => (v === 'd' ? 1 : 0))
    const blocks = Int32Array.from(labels, (v) => (v.startsWith('b') ? 0 : -1))
    const resolution = 0.08 * 18
    const m = Int32Array.from(start)
    // A target the block would reach and d joining would not.
    moveTowards(network, m, resolution, networkModularity(network, start, resolution) + 1 / 18, 1, blocks)
    expect(communitiesConnected(network, m)).toBe(true)
    expect(new Set(m).size).toBe(1)
  })

  it('moves a node into the neighbouring community it gains most in', () => {
    // s (alone) is tied to A by 3 and to B by 1; A comes first by id.
    const a = ['a0', 'a1', 'a2']
    const b = ['b0', 'b1', 'b2']
    const { network, labels } = buildNetwork([...clique(a), ...clique(b), ['s', 'a0', 3], ['s', 'b0', 1]])
    const m = Int32Array.from(labels, (v) => (v.startsWith('a') ? 0 : v.startsWith('b') ? 1 : 2))
    const intoA = networkModularity(
      network,
      Int32Array.from(labels, (v) => (v.startsWith('b') ? 1 : 0)),
    )
    const moved = moveTowards(network, m, 1, intoA - 1e-9, 1)
    expect(m[labels.indexOf('s')]).toBe(0)
    expect(moved[labels.indexOf('s')]).toBe(1)
  })

  it('moves a block into the neighbouring community it gains most in, not merely out', () => {
    // B = {b0, b1}, glued to A before, is tied to C by 4 and to A by 1 (2m = 36, r = 1/36).
    // Moved as a block into C it gains 4 − 7·16/36 − stay; alone only −stay.
    const a = ['a0', 'a1', 'a2', 'a3']
    const c = ['c0', 'c1', 'c2', 'c3']
    const edges: WeightedEdge[] = [
      ...clique(a),
      ...clique(c),
      ['b0', 'b1', 1],
      ['b0', 'c0', 2],
      ['b1', 'c1', 2],
      ['b0', 'a0', 1],
    ]
    const { network, labels } = buildNetwork(edges)
    // C is community 0 (a move into community 0 is no move alone).
    const m = Int32Array.from(labels, (v) => (v.startsWith('c') ? 0 : 1))
    const blocks = Int32Array.from(labels, (v) => (v.startsWith('b') ? 0 : -1))
    // A target no single change reaches (B into C gives exactly Q(into C)), so the largest gain goes.
    const intoC = networkModularity(
      network,
      Int32Array.from(labels, (v) => (v.startsWith('a') ? 1 : 0)),
    )
    const moved = moveTowards(network, m, 1, intoC + 1e-9, 1, blocks)
    const of = (v: string) => m[labels.indexOf(v)]
    expect(of('b0')).toBe(of('c0'))
    expect(of('b1')).toBe(of('c0'))
    expect(of('a0')).not.toBe(of('c0'))
    expect([...moved].every((x) => x === 0)).toBe(true)
    expect([...blocks]).toEqual(Array.from(labels, (v) => (v.startsWith('b') ? 0 : -1)))
  })

  it('prefers the smallest change that reaches the target, else the largest gain', () => {
    // Ring of five K5s; clique 1 glued to clique 0 (a block), k4_2 put with clique 3.
    const { edges } = ringWithStray()
    const { network, labels } = buildNetwork(edges)
    const cl = (v: string) => Number(v.slice(1, v.indexOf('_')))
    const previous = Int32Array.from(labels, (v) => (v === 'k4_2' ? 3 : cl(v) === 1 ? 0 : cl(v)))
    const blocks = () => Int32Array.from(labels, (v) => (cl(v) === 1 ? 0 : -1))
    const q0 = networkModularity(network, previous)
    const of = (m: Int32Array, v: string) => m[labels.indexOf(v)]
    // Just above q0: both the block (5 nodes) and k4_2 (1 node) reach it; k4_2 goes.
    const small = Int32Array.from(previous)
    expect([...moveTowards(network, small, 1, q0 + 1e-6, 10, blocks())].filter((x) => x === 1)).toHaveLength(1)
    expect(of(small, 'k4_2')).toBe(of(small, 'k4_0'))
    expect(of(small, 'k1_0')).toBe(of(small, 'k0_0'))
    // One change towards a target neither reaches alone: the block, which gains most.
    const one = Int32Array.from(previous)
    expect([...moveTowards(network, one, 1, 0.65, 1, blocks())].filter((x) => x === 1)).toHaveLength(0)
    expect(of(one, 'k1_0')).not.toBe(of(one, 'k0_0'))
    expect(of(one, 'k4_2')).toBe(of(one, 'k3_0'))
  })
})
