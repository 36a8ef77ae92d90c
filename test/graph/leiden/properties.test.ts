// Property tests over many seeds and generated graphs: connectivity of every community at every
// level, hierarchy invariants (spec leiden.md §11.9), determinism and input immutability.
import { describe, expect, it } from 'vitest'
import {
  hierarchicalLeiden,
  type HierarchicalCluster,
  type LeidenMode,
  type WeightedEdge,
} from '../../../src/graph/leiden/index.js'
import { adjacency, clusterMembers, isConnected, plantedPartition, ringOfCliques, seededRandom } from './graphs.js'

/** Checks §11.9 and connectivity; returns nothing, fails through expect. */
function checkHierarchy(
  edges: ReadonlyArray<WeightedEdge>,
  entries: HierarchicalCluster[],
  maxClusterSize: number,
): void {
  const adj = adjacency(edges)
  const nodes = [...adj.keys()].filter((v) => (adj.get(v)?.size ?? 0) > 0)
  const byCluster = clusterMembers(entries)
  const levelOf = new Map<number, number>()
  const parentOf = new Map<number, number | null>()
  for (const e of entries) {
    // One level and one parent per cluster id: ids are unique across levels.
    if (levelOf.has(e.cluster)) {
      expect(levelOf.get(e.cluster)).toBe(e.level)
      expect(parentOf.get(e.cluster)).toBe(e.parentCluster)
    }
    levelOf.set(e.cluster, e.level)
    parentOf.set(e.cluster, e.parentCluster)
    if (e.level === 0) expect(e.parentCluster).toBeNull()
  }
  // Exactly one level-0 entry and one final entry per node; the final one is the deepest.
  const level0 = new Map<string, number>()
  const finals = new Map<string, HierarchicalCluster>()
  const deepest = new Map<string, HierarchicalCluster>()
  for (const e of entries) {
    if (e.level === 0) {
      expect(level0.has(e.node)).toBe(false)
      level0.set(e.node, e.cluster)
    }
    if (e.isFinal) {
      expect(finals.has(e.node)).toBe(false)
      finals.set(e.node, e)
    }
    const d = deepest.get(e.node)
    if (!d || e.level > d.level) deepest.set(e.node, e)
  }
  expect([...level0.keys()].sort()).toEqual([...nodes].sort())
  expect(finals.size).toBe(nodes.length)
  for (const [node, e] of finals) expect(deepest.get(node)).toBe(e)
  // Parents are one level up and their children partition their members.
  const children = new Map<number, number[]>()
  for (const [id, parent] of parentOf) {
    if (parent === null) continue
    expect(levelOf.get(parent)).toBe((levelOf.get(id) ?? -1) - 1)
    const kids = children.get(parent)
    if (kids) kids.push(id)
    else children.set(parent, [id])
  }
  for (const [parent, kids] of children) {
    const union = kids.flatMap((k) => byCluster.get(k) ?? []).sort()
    expect(union).toEqual([...(byCluster.get(parent) ?? [])].sort())
    expect(byCluster.get(parent)?.length).toBeGreaterThanOrEqual(maxClusterSize)
  }
  // Entries of a split cluster are not final; leaves are final.
  for (const e of entries) expect(e.isFinal).toBe(!children.has(e.cluster))
  // Every community at every level induces a connected subgraph.
  for (const [id, members] of byCluster) {
    if (!isConnected(members, adj)) throw new Error(`cluster ${id} (${members.length} nodes) is disconnected`)
  }
}

const MODES: LeidenMode[] = ['compat', 'quality']

// The default suite runs a reduced share of each property (fewer seeds, smaller graphs); the slow
// drills (GRAPHRAG_SLOW_TESTS=1) run the full sizes.
const SLOW = Boolean(process.env.GRAPHRAG_SLOW_TESTS)

describe('hierarchicalLeiden properties', () => {
  it('the connectivity check itself detects a disconnected set', () => {
    const adj = adjacency([
      ['a', 'b', 1],
      ['b', 'c', 1],
    ])
    expect(isConnected(['a', 'b', 'c'], adj)).toBe(true)
    expect(isConnected(['a', 'c'], adj)).toBe(false)
  })

  for (const mode of MODES) {
    it(`${mode}: connected communities and hierarchy invariants on planted graphs, 200–2000 nodes, many seeds`, () => {
      const rand = seededRandom(99)
      for (let i = 0; i < (SLOW ? 24 : 10); i++) {
        const n = 200 + Math.floor(rand() * 1800)
        const edges = plantedPartition(n, 1000 + i, {
          block: 10 + Math.floor(rand() * 60),
          mixing: 0.1 + rand() * 0.5,
          edgesPerNode: 1 + Math.floor(rand() * 4),
        })
        const max = 5 + Math.floor(rand() * 20)
        checkHierarchy(edges, hierarchicalLeiden(edges, { mode, seed: i * 7919, maxClusterSize: max }), max)
      }
    })

    it(`${mode}: connected communities and hierarchy invariants on ${SLOW ? '5k and 12k-node graphs, several seeds' : 'a 5k-node graph'}`, () => {
      const rand = seededRandom(mode === 'compat' ? 7 : 8)
      for (const [i, n] of (SLOW ? [5000, 5000, 12_000, 12_000] : [5000]).entries()) {
        const edges = plantedPartition(n, 2000 + i, {
          block: 30 + Math.floor(rand() * 150),
          mixing: 0.2 + rand() * 0.3,
          edgesPerNode: 2 + Math.floor(rand() * 3),
        })
        checkHierarchy(edges, hierarchicalLeiden(edges, { mode, seed: 31 * i + 3 }), 10)
      }
    })

    it(`${mode}: connected communities on a ${SLOW ? '20k' : '5k'}-node sparse graph (many fragile communities)`, () => {
      // Reduced: 5k nodes in blocks of 50 keep the same ratio of fragile communities.
      const edges = SLOW
        ? plantedPartition(20_000, 4242, { block: 200, mixing: 0.45, edgesPerNode: 2 })
        : plantedPartition(5000, 4242, { block: 50, mixing: 0.45, edgesPerNode: 2 })
      checkHierarchy(edges, hierarchicalLeiden(edges, { mode, seed: 5 }), 10)
    })

    it(`${mode}: same seed gives the same output on several graphs; the input is not mutated`, () => {
      const graphs = [
        plantedPartition(1500, 77),
        plantedPartition(5000, 78, { block: 120, mixing: 0.4, edgesPerNode: 2 }),
        ringOfCliques(30, 5),
      ]
      for (const edges of graphs) {
        const copy = structuredClone(edges)
        Object.freeze(edges)
        for (const e of edges) Object.freeze(e)
        const a = hierarchicalLeiden(edges, { mode, seed: 1234 })
        expect(hierarchicalLeiden(edges, { mode, seed: 1234 })).toEqual(a)
        expect(edges).toEqual(copy)
      }
      const first = graphs[0]
      expect(hierarchicalLeiden(first, { mode, seed: 4321 })).not.toEqual(
        hierarchicalLeiden(first, { mode, seed: 1234 }),
      )
    })

    it(`${mode}: ring of cliques keeps cliques whole; max 11 leaves no level 1`, () => {
      const edges = ringOfCliques(30, 5)
      for (let seed = 0; seed < 10; seed++) {
        const out = hierarchicalLeiden(edges, { mode, seed, maxClusterSize: 11 })
        for (const members of clusterMembers(out).values()) {
          const cliques = new Set(members.map((v) => v.split('_')[0]))
          expect(members.length).toBe(cliques.size * 5)
        }
        expect(out.every((e) => e.level === 0)).toBe(true)
      }
    })
  }
})
