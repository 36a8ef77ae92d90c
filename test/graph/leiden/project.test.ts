// The previous clustering projected onto a changed graph (projection option, project.ts): removed
// nodes dropped, communities the graph no longer holds together split into their pieces, new nodes
// placed with their neighbours (a new group on its own), the hierarchy's size rule applied as a full
// clustering applies it; single changes (project-moves.ts) only as far as the target needs.
import { describe, expect, it } from 'vitest'
import {
  buildNetwork,
  hierarchicalLeiden,
  networkModularity,
  type HierarchicalCluster,
  type WeightedEdge,
} from '../../../src/graph/leiden/index.js'
import { moveTowards } from '../../../src/graph/leiden/project-moves.js'
import {
  adjacency,
  cliqueEdges as clique,
  clusterMembers,
  isConnected,
  levelPartition,
  ringWithStray,
} from './graphs.js'

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i}`)

const labels = (groups: ReadonlyArray<readonly string[]>, base = 0) =>
  new Map(groups.flatMap((members, i) => members.map((m) => [m, base + i] as const)))

/** Every node of a child is in its parent, parents are one level up, and every cluster is connected. */
function expectValidHierarchy(entries: ReadonlyArray<HierarchicalCluster>, edges: ReadonlyArray<WeightedEdge>): void {
  const levelOf = new Map(entries.map((e) => [e.cluster, e.level]))
  const members = clusterMembers(entries)
  for (const e of entries) {
    if (e.parentCluster === null) continue
    expect(levelOf.get(e.parentCluster)).toBe(e.level - 1)
    expect(members.get(e.parentCluster)).toContain(e.node)
  }
  const adj = adjacency(edges)
  for (const nodes of members.values()) expect(isConnected(nodes, adj)).toBe(true)
}

describe('projecting the previous clustering', () => {
  it('drops removed nodes, splits broken communities, places new nodes with their neighbours', () => {
    const [a, b] = [names('a', 5), names('b', 5)]
    const edges: WeightedEdge[] = [
      ...clique(a),
      ...clique(b),
      ['a0', 'b0', 1],
      // Previous community c0–c1–c2–c3 lost its middle edge: two pieces, each tied to a clique.
      ['c0', 'c1', 1],
      ['c2', 'c3', 1],
      ['c1', 'a1', 1],
      ['c2', 'b1', 1],
      // A new node tied to two nodes of a.
      ['x0', 'a2', 1],
      ['x0', 'a3', 1],
      // A new clique hanging on b by one edge: a community of its own, not pulled into b.
      ...clique(names('n', 4)),
      ['n0', 'b2', 1],
    ]
    const previous = labels([[...a, 'gone'], b, ['c0', 'c1', 'c2', 'c3']])
    const projected = hierarchicalLeiden(edges, {
      maxClusterSize: 100,
      startingCommunities: [previous],
      projection: {},
    })
    expect(levelPartition(projected, 0)).toEqual(
      [[...a, 'x0'], b, ['c0', 'c1'], ['c2', 'c3'], names('n', 4)].map((g) => g.sort().join(',')).sort(),
    )
    expect(projected.some((e) => e.node === 'gone')).toBe(false)
    expectValidHierarchy(projected, edges)
    // Same previous clustering and graph: the same result.
    expect(hierarchicalLeiden(edges, { maxClusterSize: 100, startingCommunities: [previous], projection: {} })).toEqual(
      projected,
    )
  })

  it('applies the size rule: grown communities without children are split, shrunk ones lose theirs', () => {
    const [p, q] = [names('p', 4), names('q', 4)]
    const [s, t] = [names('s', 6), names('t', 6)]
    const edges: WeightedEdge[] = [
      // P = two K4s, split before into them; still 8 ≥ 5 members.
      ...clique(p),
      ...clique(q),
      ['p0', 'q0', 1],
      // S = two triangles joined by an edge, one community with no children before: now ≥ 5.
      ...clique(s.slice(0, 3)),
      ...clique(s.slice(3)),
      ['s0', 's3', 1],
      // T had children {t0,t1,t2} and {t3,t4,t5}; t4 and t5 are gone: 4 < 5 members, no children.
      ...clique(t.slice(0, 3)),
      ['t2', 't3', 1],
      ['p1', 's1', 1],
      ['s2', 't0', 1],
    ]
    const level0 = labels([[...p, ...q], s, t])
    const level1 = labels([p, q, t.slice(0, 3), t.slice(3)], 10)
    const entries = hierarchicalLeiden(edges, {
      maxClusterSize: 5,
      startingCommunities: [level0, level1],
      projection: {},
    })
    expect(levelPartition(entries, 0)).toEqual([[...p, ...q], s, t.slice(0, 4)].map((g) => g.sort().join(',')).sort())
    // P keeps its two children, S is split by Leiden into its triangles, T has none any more.
    expect(levelPartition(entries, 1)).toEqual(
      [p, q, s.slice(0, 3), s.slice(3)].map((g) => [...g].sort().join(',')).sort(),
    )
    expect(entries.filter((e) => e.level === 1 && e.node.startsWith('t'))).toEqual([])
    expect(entries.filter((e) => e.level === 0 && e.node.startsWith('t')).every((e) => e.isFinal)).toBe(true)
    expectValidHierarchy(entries, edges)
  })

  it('moves no more than the target needs, and nothing without one', () => {
    // Ring of five K5s; the previous clustering glued clique 1 to clique 0 and left k4_2 with
    // clique 3 (the edge k4_2–k3_3 that tied it there was heavier then).
    const { edges, cliques } = ringWithStray()
    const { network, labels: order } = buildNetwork(edges)
    const previous = Int32Array.from(order, (v) => {
      const c = Number(v.slice(1, v.indexOf('_')))
      if (v === 'k4_2') return 3
      return c === 1 ? 0 : c
    })
    const q0 = networkModularity(network, previous)
    const untouched = Int32Array.from(previous)
    moveTowards(network, untouched, 1, Number.NEGATIVE_INFINITY, 100)
    expect(untouched).toEqual(previous)
    // The best single change is the move of k4_2 back home; it reaches a target just above q0.
    const one = Int32Array.from(previous)
    const moved = moveTowards(network, one, 1, q0 + 1e-6, 100)
    expect([...moved].filter((x) => x === 1).length).toBe(1)
    expect(one[order.indexOf('k4_2')]).toBe(one[order.indexOf('k4_0')])
    expect(one[order.indexOf('k1_0')]).toBe(one[order.indexOf('k0_0')])
    // A higher target needs the glued cliques apart: no single node gains by leaving, but clique 1
    // as a block (a previous sub-community) does, and it moves whole.
    const stuck = Int32Array.from(previous)
    moveTowards(network, stuck, 1, 0.7, 100)
    expect(stuck[order.indexOf('k1_0')]).toBe(stuck[order.indexOf('k0_0')])
    const blocks = Int32Array.from(order, (v) => (v.startsWith('k1_') ? 0 : -1))
    const apart = Int32Array.from(previous)
    expect([...moveTowards(network, apart, 1, 0.7, 100, blocks)].filter((x) => x === 1).length).toBe(1)
    expect(new Set(cliques[1]!.map((v) => apart[order.indexOf(v)])).size).toBe(1)
    expect(apart[order.indexOf('k1_0')]).not.toBe(apart[order.indexOf('k0_0')])
    expect(networkModularity(network, apart)).toBeGreaterThan(networkModularity(network, one))
  })
})
