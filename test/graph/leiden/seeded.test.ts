// Leiden started from a previous partition (startingCommunities): symmetric graphs where a run from
// singletons picks one of many equally good partitions, so only a seeded run returns the given one;
// a planted graph with a small local change keeps its untouched communities; new nodes get placed.
import { describe, expect, it } from 'vitest'
import {
  buildNetwork,
  hierarchicalLeiden,
  type HierarchicalCluster,
  type WeightedEdge,
} from '../../../src/graph/leiden/index.js'
import { startingMembership } from '../../../src/graph/leiden/seed.js'
import {
  adjacency,
  clusterMembers,
  isConnected,
  levelAssignment,
  levelPartition,
  memberSets,
  plantedPartition,
} from './graphs.js'

/** Circulant C_n(1,2) with node names `${prefix}${i}`: every node tied to its two nearest on each side. */
function circulant(n: number, prefix: string): WeightedEdge[] {
  const edges: WeightedEdge[] = []
  for (let i = 0; i < n; i++) {
    edges.push([`${prefix}${i}`, `${prefix}${(i + 1) % n}`, 1])
    edges.push([`${prefix}${i}`, `${prefix}${(i + 2) % n}`, 1])
  }
  return edges
}

/** Segments of `size` consecutive nodes of a circulant, the first starting at `offset`. */
function segments(n: number, size: number, offset: number, prefix: string, base = 0): Map<string, number> {
  const out = new Map<string, number>()
  for (let i = 0; i < n; i++) out.set(`${prefix}${(i + offset) % n}`, base + Math.floor(i / size))
  return out
}

describe('Leiden from a starting partition', () => {
  it('level 0: keeps each of the equally good segmentations of a circulant it is started from', () => {
    // C36(1,2) cut into six segments of six is a strict local optimum at every rotation; from
    // singletons Leiden lands on one rotation (or another segmentation), seeded on the one given.
    const edges = circulant(36, 'n')
    const scratch = levelPartition(hierarchicalLeiden(edges, { maxClusterSize: 100 }), 0)
    let differentFromScratch = 0
    for (const mode of ['quality', 'compat'] as const) {
      for (let offset = 0; offset < 6; offset++) {
        const start = segments(36, 6, offset, 'n')
        const seeded = hierarchicalLeiden(edges, { maxClusterSize: 100, mode, startingCommunities: [start] })
        expect(levelPartition(seeded, 0), `${mode}, offset ${offset}`).toEqual(memberSets(start))
        if (levelPartition(seeded, 0).join('|') !== scratch.join('|')) differentFromScratch++
      }
    }
    expect(differentFromScratch).toBeGreaterThanOrEqual(10)
  })

  it('splits start from the previous sub-communities of their members', () => {
    // Eight C24(1,2) blocks joined in a ring: level 0 is the blocks, each block (24 ≥ 10 members) is
    // split at level 1, into segments of six at whatever rotation its start gives.
    const edges: WeightedEdge[] = []
    const level0 = new Map<string, number>()
    const level1 = new Map<string, number>()
    for (let b = 0; b < 8; b++) {
      edges.push(...circulant(24, `b${b}_`), [`b${b}_0`, `b${(b + 1) % 8}_12`, 1])
      for (let i = 0; i < 24; i++) level0.set(`b${b}_${i}`, b)
      for (const [node, c] of segments(24, 6, b % 6, `b${b}_`, 4 * b)) level1.set(node, c)
    }
    const seeded = hierarchicalLeiden(edges, { maxClusterSize: 10, startingCommunities: [level0, level1] })
    expect(levelPartition(seeded, 0)).toEqual(memberSets(level0))
    expect(levelPartition(seeded, 1)).toEqual(memberSets(level1))
    // Only level 0 given: the splits start from singletons and do not all land on those rotations.
    const unseededSplits = hierarchicalLeiden(edges, { maxClusterSize: 10, startingCommunities: [level0] })
    expect(levelPartition(unseededSplits, 0)).toEqual(memberSets(level0))
    expect(levelPartition(unseededSplits, 1)).not.toEqual(memberSets(level1))
  })

  it('after a small local change keeps the untouched communities and places the new nodes', () => {
    const before = plantedPartition(600, 8, { block: 30, mixing: 0.2, edgesPerNode: 3 })
    const previous = hierarchicalLeiden(before)
    const start = [0, 1, 2].map((level) => levelAssignment(previous, level)).filter((m) => m.size > 0)
    // Three new nodes hang on v5 and its neighbours; one new edge inside that region.
    const added: WeightedEdge[] = [
      ['x0', 'v5', 5],
      ['x0', 'v6', 5],
      ['x1', 'x0', 5],
      ['x1', 'v5', 5],
      ['x2', 'v7', 5],
      ['v5', 'v8', 5],
    ]
    const after = [...before, ...added]
    const touched = new Set(added.flatMap(([s, t]) => [s, t]))
    const untouched = (members: string[]) => members.every((v) => !touched.has(v))
    const kept = (result: HierarchicalCluster[]) => {
      const now = new Set(levelPartition(result, 0))
      const old = [...clusterMembers(previous.filter((e) => e.level === 0)).values()].filter(untouched)
      return { kept: old.filter((m) => now.has([...m].sort().join(','))).length, of: old.length }
    }
    const seeded = hierarchicalLeiden(after, { startingCommunities: start })
    const scratch = hierarchicalLeiden(after)
    const seededKept = kept(seeded)
    expect(seededKept.of).toBeGreaterThan(10)
    expect(seededKept.kept).toBe(seededKept.of)
    // From singletons the same change reshuffles about half of them (9 of 19 kept).
    expect(kept(scratch).kept).toBeLessThan(seededKept.of - 5)
    // Started on the unchanged graph, it gives back the previous clustering.
    expect(levelPartition(hierarchicalLeiden(before, { startingCommunities: start }), 0)).toEqual(
      levelPartition(previous, 0),
    )
    // The new nodes join their neighbours' communities, and every community stays connected.
    const level0 = levelAssignment(seeded, 0)
    for (const x of ['x0', 'x1']) expect(level0.get(x)).toBe(level0.get('v5'))
    expect(level0.get('x2')).toBe(level0.get('v7'))
    const adj = adjacency(after)
    for (const members of clusterMembers(seeded).values()) expect(isConnected(members, adj)).toBe(true)
  })

  it('a starting community the graph no longer holds together starts as its pieces', () => {
    // Two triangles far apart labelled as one community (spec leiden.md §11.8).
    const edges: WeightedEdge[] = [
      ['a', 'b', 1],
      ['b', 'c', 1],
      ['a', 'c', 1],
      ['c', 'm1', 1],
      ['m1', 'm2', 1],
      ['m2', 'm3', 1],
      ['m3', 'd', 1],
      ['d', 'e', 1],
      ['e', 'f', 1],
      ['d', 'f', 1],
    ]
    const start = new Map(['a', 'b', 'c', 'd', 'e', 'f'].map((v) => [v, 0]))
    // The starting partition itself: the label's two pieces apart, unlabelled nodes alone, ids compact.
    const { network, labels } = buildNetwork(edges)
    const label = Int32Array.from(labels, (v) => (start.has(v) ? 7 : -1))
    const membership = startingMembership(network, label)
    const of = (v: string) => membership[labels.indexOf(v)]
    expect(new Set(['a', 'b', 'c'].map(of)).size).toBe(1)
    expect(new Set(['d', 'e', 'f'].map(of)).size).toBe(1)
    expect(of('a')).not.toBe(of('d'))
    expect(new Set(membership).size).toBe(5)
    expect(Math.max(...membership)).toBe(4)
    for (const mode of ['quality', 'compat'] as const) {
      const result = hierarchicalLeiden(edges, { mode, startingCommunities: [start] })
      const level0 = levelAssignment(result, 0)
      expect(level0.get('a')).not.toBe(level0.get('d'))
      const adj = adjacency(edges)
      for (const members of clusterMembers(result).values()) expect(isConnected(members, adj)).toBe(true)
    }
  })

  it('without a starting partition (or an empty one, or one naming no node) gives exactly the run from singletons', () => {
    const edges = plantedPartition(300, 3, { block: 25 })
    const plain = hierarchicalLeiden(edges)
    expect(hierarchicalLeiden(edges, { startingCommunities: [] })).toEqual(plain)
    expect(hierarchicalLeiden(edges, { startingCommunities: undefined })).toEqual(plain)
    // A start naming none of the graph's nodes (an index whose entities are all new) is no start.
    expect(hierarchicalLeiden(edges, { startingCommunities: [new Map([['zz', 1]])] })).toEqual(plain)
  })
})
