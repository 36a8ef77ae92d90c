// Putting back previous communities after a started run (restore.ts, keepTogether): the modularity
// it gives up stays within the tolerance (checked against networkModularity, which prices the
// carve-outs independently), restored groups are communities again, every community stays connected.
import { describe, expect, it } from 'vitest'
import {
  buildNetwork,
  hierarchicalLeiden,
  leidenNetwork,
  networkModularity,
  type WeightedEdge,
} from '../../../src/graph/leiden/index.js'
import { restoreGroups } from '../../../src/graph/leiden/restore.js'
import { adjacency, clusterMembers, isConnected, levelAssignment, plantedPartition } from './graphs.js'

function groupsOf(membership: Int32Array): Int32Array[] {
  const groups = new Map<number, number[]>()
  membership.forEach((c, v) => {
    const list = groups.get(c)
    if (list) list.push(v)
    else groups.set(c, [v])
  })
  return [...groups.values()].map((g) => Int32Array.from(g))
}

const sameGroup = (membership: Int32Array, group: Int32Array) =>
  group.every((v) => membership[v] === membership[group[0]!]) &&
  membership.filter((c) => c === membership[group[0]!]).length === group.length

describe('restoring previous communities', () => {
  it('gives up at most the tolerance of modularity, as networkModularity measures it', () => {
    const { network } = buildNetwork(plantedPartition(800, 5, { block: 40, mixing: 0.35 }))
    const now = leidenNetwork(network, { seed: 1 }).membership
    // Another run's communities stand for the previous clustering: they overlap the current ones.
    const previous = groupsOf(leidenNetwork(network, { seed: 2, mode: 'compat' }).membership)
    const before = networkModularity(network, now)
    for (const tolerance of [0, 0.002, 0.01, 0.05]) {
      const restored = restoreGroups(network, now, previous, 1, tolerance)
      const after = networkModularity(network, restored.membership)
      expect(after, `tolerance ${tolerance}`).toBeGreaterThanOrEqual(before - tolerance * before - 1e-12)
      const kept = previous.filter((g) => sameGroup(restored.membership, g)).length
      if (tolerance === 0.05) expect(kept).toBeGreaterThan(previous.filter((g) => sameGroup(now, g)).length)
      expect(Math.max(...restored.membership) + 1).toBe(restored.count)
    }
  })

  it('puts back two communities a change elsewhere made the run merge', () => {
    // Two cliques tied by four edges stand apart in a small graph; a large far-away part added to
    // the graph lowers the modularity penalty until merging them pays, a little.
    const clique = (p: string): WeightedEdge[] =>
      [0, 1, 2, 3, 4, 5].flatMap((i) =>
        [0, 1, 2, 3, 4, 5].filter((j) => j > i).map((j) => [`${p}${i}`, `${p}${j}`, 1] as const),
      )
    const ab: WeightedEdge[] = [
      ...clique('a'),
      ...clique('b'),
      ['a0', 'b0', 1],
      ['a1', 'b1', 1],
      ['a2', 'b2', 1],
      ['a3', 'b3', 1],
    ]
    const far = plantedPartition(600, 3, { block: 30, mixing: 0.1 }).map(([s, t, w]) => [s, t, w] as const)
    const edges: WeightedEdge[] = [...ab, ...far, ['a5', 'v0', 1]]
    const a = ['a0', 'a1', 'a2', 'a3', 'a4', 'a5']
    const b = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5']
    const before = hierarchicalLeiden(ab, { maxClusterSize: 100 })
    const previous = levelAssignment(before, 0)
    expect(previous.get('a0')).not.toBe(previous.get('b0'))
    const merged = levelAssignment(
      hierarchicalLeiden(edges, { maxClusterSize: 100, startingCommunities: [previous] }),
      0,
    )
    expect(merged.get('a0')).toBe(merged.get('b0'))
    const restored = hierarchicalLeiden(edges, {
      maxClusterSize: 100,
      startingCommunities: [previous],
      keepTogether: [a, b],
    })
    const level0 = levelAssignment(restored, 0)
    expect(new Set(a.map((v) => level0.get(v))).size).toBe(1)
    expect(new Set(b.map((v) => level0.get(v))).size).toBe(1)
    expect(level0.get('a0')).not.toBe(level0.get('b0'))
    const adj = adjacency(edges)
    for (const members of clusterMembers(restored).values()) expect(isConnected(members, adj)).toBe(true)
    // A group naming a node the graph lacks is ignored.
    expect(
      hierarchicalLeiden(edges, { maxClusterSize: 100, startingCommunities: [previous], keepTogether: [[...a, 'zz']] }),
    ).toEqual(hierarchicalLeiden(edges, { maxClusterSize: 100, startingCommunities: [previous] }))
  })
})
