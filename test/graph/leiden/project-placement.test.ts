// How the projection places nodes that had no previous community (projectMembership, project.ts):
// breadth-first from the labelled nodes, each into the community of already placed neighbours that
// gains most modularity, a unit of grouped nodes as a whole, and the result numbered by smallest node.
// Gains are worked out by hand in each case: w(U, c) − (resolution / 2m)·K_U·K_c.
import { describe, expect, it } from 'vitest'
import { buildNetwork, hierarchicalLeiden, type WeightedEdge } from '../../../src/graph/leiden/index.js'
import { projectMembership } from '../../../src/graph/leiden/project.js'
import { cliqueEdges } from './graphs.js'

/** The projection of `previous` (name → label; absent = new) as sorted groups of names, and its raw result. */
function project(
  edges: readonly WeightedEdge[],
  previous: Record<string, number>,
  resolution: number,
  unitOf?: Record<string, number>,
) {
  const { network, labels } = buildNetwork(edges)
  const start = Int32Array.from(labels, (name) => previous[name] ?? -1)
  const units = unitOf === undefined ? undefined : Int32Array.from(labels, (name) => unitOf[name] ?? -1)
  const result = projectMembership(network, start, resolution, units)
  const groups = new Map<number, string[]>()
  labels.forEach((name, v) => groups.set(result.membership[v]!, [...(groups.get(result.membership[v]!) ?? []), name]))
  return { labels, result, groups: [...groups.values()].map((g) => g.sort().join(',')).sort() }
}

describe('projection: placing new nodes', () => {
  it('places new nodes breadth-first from the labelled ones, not in id order', () => {
    // x comes first by id but is reached through y. 2m = 10, r = 0.1. Breadth-first, y is placed
    // first: joining A = {a0, a1} gains 3 − 0.1·4·5 = 1; then x joins A too (1 − 0.1·1·9 = 0.1).
    // In id order x would be placed first, alone (no placed neighbour), and stay there.
    const edges: WeightedEdge[] = [
      ['x', 'y', 1],
      ['a0', 'a1', 1],
      ['y', 'a0', 3],
    ]
    const { labels, groups } = project(edges, { a0: 0, a1: 0 }, 1)
    expect(labels).toEqual(['x', 'y', 'a0', 'a1'])
    expect(groups).toEqual(['a0,a1,x,y'])
  })

  it('searches breadth-first from the labelled nodes only, not from new nodes met earlier by id', () => {
    // q and r hang on a0; p hangs on q. Resolution 1.18 (r = 0.118, 2m = 10): q joins A (2 − 0.118·3·5
    // > 0), then r (1 − 0.118·8 > 0); p, placed last, would make A weigh 10 (1 − 0.118·9 < 0): alone.
    // Searching from p (first by id) would place it before r, and leave r alone instead.
    const edges: WeightedEdge[] = [
      ['p', 'q', 1],
      ['q', 'a0', 2],
      ['r', 'a0', 1],
      ['a0', 'a1', 1],
    ]
    const { labels, groups } = project(edges, { a0: 0, a1: 0 }, 1.18)
    expect(labels).toEqual(['p', 'q', 'a0', 'r', 'a1'])
    expect(groups).toEqual(['a0,a1,q,r', 'p'])
  })

  it('builds a component with no labelled node from its smallest id', () => {
    // p is placed first, alone; q then joins it: 1 − (3/4)·1·1 = 0.25 > 0 (2m = 4, resolution 3).
    // Counting p's weight twice in its community (1 − (3/4)·1·2 < 0) would leave q alone.
    const edges: WeightedEdge[] = [
      ['a0', 'a1', 1],
      ['p', 'q', 1],
    ]
    expect(project(edges, { a0: 0, a1: 0 }, 3).groups).toEqual(['a0,a1', 'p,q'])
    // With no labelled node at all the same holds.
    expect(project([['p', 'q', 1]], {}, 1).groups).toEqual(['p,q'])
  })

  it('only weighs communities of nodes already placed', () => {
    // x (reached first, from a0) is tied to the new z by 3 and to a0 by 2. 2m = 12, r = 1/12.
    // x joins A: 2 − (1/12)·5·4 = 0.33 > 0; then z joins A through x: 3 − (1/12)·3·9 = 0.75.
    // Were z's own starting community (z is not placed yet) a candidate for x, x would go there
    // (3 − (1/12)·5·3 = 1.75) and A would end without them.
    const edges: WeightedEdge[] = [
      ['a0', 'a1', 1],
      ['x', 'a0', 2],
      ['x', 'z', 3],
    ]
    expect(project(edges, { a0: 0, a1: 0 }, 1).groups).toEqual(['a0,a1,x,z'])
  })

  it('keeps previous communities as they were, split into their connected pieces', () => {
    // b0 and b1 shared a label but no longer an edge: two communities. Labelled nodes never move,
    // even where a neighbour's community would gain (b1 is tied to a by 5).
    const edges: WeightedEdge[] = [
      ['a0', 'a1', 1],
      ['b0', 'c', 1],
      ['b1', 'a0', 5],
    ]
    const { groups, result } = project(edges, { a0: 0, a1: 0, b0: 1, b1: 1, c: 2 }, 1)
    expect(groups).toEqual(['a0,a1', 'b0', 'b1', 'c'])
    expect(result.count).toBe(4)
  })

  it('numbers communities 0..k−1 in order of their smallest node id', () => {
    // Labels 7 and 3 are renumbered by first node: b (ids 0, 1) becomes 0, a (ids 2, 3) becomes 1.
    const edges: WeightedEdge[] = [
      ['b0', 'b1', 1],
      ['a0', 'a1', 1],
      ['n', 'a1', 1],
    ]
    const { labels, result } = project(edges, { b0: 7, b1: 7, a0: 3, a1: 3 }, 1)
    expect(labels).toEqual(['b0', 'b1', 'a0', 'a1', 'n'])
    expect([...result.membership]).toEqual([0, 0, 1, 1, 1])
    expect(result.count).toBe(2)
  })

  it('places a unit as a whole, with the summed degree and links of its members', () => {
    // Unit {n0, n1, n2}, a triangle tied to A = K5 by n0–a0 (5). 2m = 36, K_A = 25. Alone, n0 would
    // join A (5 − 7·25/36 > 0); as one unit of degree 11 it gains 5 − 11·25/36 < 0 and stays apart.
    const a = ['a0', 'a1', 'a2', 'a3', 'a4']
    const edges = cliqueEdges(a)
    edges.push(['n0', 'n1', 1], ['n1', 'n2', 1], ['n0', 'n2', 1], ['n0', 'a0', 5])
    const previous = Object.fromEntries(a.map((m) => [m, 0]))
    const grouped = project(edges, previous, 1, { n0: 4, n1: 4, n2: 4 })
    expect(grouped.groups).toEqual([a.join(','), 'n0,n1,n2'])
    // Without the units, n0 is pulled into A, and then n1 and n2 are left to form their own.
    expect(project(edges, previous, 1).groups).toEqual([[...a, 'n0'].sort().join(','), 'n1,n2'])
    // A unit of −1 is no unit: the same as without units.
    expect(project(edges, previous, 1, { n0: -1, n1: -1, n2: -1 }).groups).toEqual(project(edges, previous, 1).groups)
  })

  it('joins a unit to the community it gains most in, counting links from every member', () => {
    // u = {p, q} (degree 5): p tied to A by 1, q to A by 1 and to B by 1. 2m = 12, K_A = 4, K_B = 3.
    // As a whole u gains 2 − 5·4/12 > 0 in A (B: 1 − 5·3/12 < 0); p's link alone would not do.
    const edges: WeightedEdge[] = [
      ['a0', 'a1', 1],
      ['b0', 'b1', 1],
      ['p', 'q', 1],
      ['p', 'a0', 1],
      ['q', 'b0', 1],
      ['q', 'a1', 1],
    ]
    const { groups } = project(edges, { a0: 0, a1: 0, b0: 1, b1: 1 }, 1, { p: 0, q: 0 })
    expect(groups).toEqual(['a0,a1,p,q', 'b0,b1'])
  })

  it('groups two new nodes tied to each other, as it groups more', () => {
    // A = K5; new n0–n1, n0 tied to a0 by 5. 2m = 32, K_A = 25. One by one n0 joins A
    // (5 − 6·25/32 > 0) and n1 follows (1 − 31/32 > 0); as a pair of degree 7, 5 − 7·25/32 < 0.
    const a = ['a0', 'a1', 'a2', 'a3', 'a4']
    const edges = cliqueEdges(a)
    edges.push(['n0', 'n1', 1], ['n0', 'a0', 5])
    const entries = hierarchicalLeiden(edges, {
      maxClusterSize: 100,
      startingCommunities: [new Map(a.map((m) => [m, 0]))],
      projection: {},
    })
    const top = new Map(entries.filter((e) => e.level === 0).map((e) => [e.node, e.cluster]))
    expect(top.get('n0')).toBe(top.get('n1'))
    expect(top.get('n0')).not.toBe(top.get('a0'))
    expect(new Set(a.map((m) => top.get(m))).size).toBe(1)
  })
})
