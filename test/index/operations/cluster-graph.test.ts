// cluster_graph and its edge preparation on small graphs: GraphRAG's unit behaviours (spec leiden.md
// §11.10, tests/unit/indexing/test_cluster_graph.py) in both modes, and the edges with weight ≤ 0
// that clustering leaves out (§11.12).
import { describe, expect, it } from 'vitest'
import { InvalidGraphError } from '../../../src/errors.js'
import {
  clusterGraph,
  prepareEdges,
  type ClusterEdge,
  type ClusterGraphOptions,
} from '../../../src/index/operations/cluster-graph.js'

const edge = (source: string, target: string, weight?: number): ClusterEdge =>
  weight === undefined ? { source, target } : { source, target, weight }
const TRIANGLES = [
  edge('A', 'B', 1),
  edge('A', 'C', 1),
  edge('B', 'C', 1),
  edge('D', 'E', 1),
  edge('D', 'F', 1),
  edge('E', 'F', 1),
]

const nodeSets = (clusters: ReadonlyArray<{ nodes: string[] }>): string[][] => clusters.map((c) => [...c.nodes].sort())

describe('prepareEdges', () => {
  it('leaves out pairs with weight <= 0 before the largest component is taken, and counts them', () => {
    const relationships = [
      ...TRIANGLES.slice(0, 3),
      edge('C', 'D', -0.5),
      edge('D', 'E', 2),
      edge('E', 'G', 0),
      edge('G', 'H', 3),
      edge('H', 'I', 3),
    ]
    // With C–D kept the largest component would be A, B, C, D, E; without it {A, B, C} and {G, H, I} tie
    // (E–G is zero too) and the first found wins.
    expect(prepareEdges(relationships, true)).toEqual({
      edges: [
        ['A', 'B', 1],
        ['A', 'C', 1],
        ['B', 'C', 1],
      ],
      nonPositiveEdges: 2,
    })
    expect(prepareEdges(relationships, false).edges.map(([s, t]) => `${s}-${t}`)).toEqual([
      'A-B',
      'A-C',
      'B-C',
      'D-E',
      'G-H',
      'H-I',
    ])
  })

  it('judges a repeated pair by its last row, as the reference keeps it', () => {
    const { edges, nonPositiveEdges } = prepareEdges(
      [edge('A', 'B', 1), edge('B', 'A', -1), edge('X', 'Y', -1), edge('Y', 'X', 2)],
      false,
    )
    expect(edges).toEqual([['X', 'Y', 2]])
    expect(nonPositiveEdges).toBe(1)
  })

  it('keeps a NaN weight for the network builder to reject with the pair named', () => {
    expect(prepareEdges([edge('A', 'B', Number.NaN)], false).edges).toHaveLength(1)
    expect(() => clusterGraph([...TRIANGLES, edge('A', 'D', Number.NaN)], { ...COMPAT, use_lcc: false })).toThrow(
      InvalidGraphError,
    )
  })

  it('gives weight 1 to an edge without one and does not touch its input', () => {
    const relationships = [edge('B', 'A'), edge('C', 'A', 2)]
    const copy = structuredClone(relationships)
    expect(prepareEdges(relationships, true).edges).toEqual([
      ['A', 'B', 1],
      ['A', 'C', 2],
    ])
    expect(relationships).toEqual(copy)
  })
})

const COMPAT: ClusterGraphOptions = {
  max_cluster_size: 10,
  use_lcc: false,
  seed: 42,
  mode: 'compat',
  max_iterations: 1,
}
const QUALITY: ClusterGraphOptions = { ...COMPAT, mode: 'quality', max_iterations: 10 }

for (const options of [COMPAT, QUALITY]) {
  describe(`clusterGraph (${options.mode})`, () => {
    it('puts a single triangle in one level-0 community with parent -1', () => {
      const { clusters } = clusterGraph(TRIANGLES.slice(0, 3), options)
      expect(clusters.map((c) => ({ ...c, nodes: [...c.nodes].sort() }))).toEqual([
        { level: 0, cluster: 0, parent: -1, nodes: ['A', 'B', 'C'] },
      ])
    })

    it('gives two disjoint triangles two communities, or one with use_lcc', () => {
      const { clusters } = clusterGraph(TRIANGLES, options)
      expect(nodeSets(clusters)).toEqual([
        ['A', 'B', 'C'],
        ['D', 'E', 'F'],
      ])
      expect(clusters.every((c) => c.level === 0 && c.parent === -1)).toBe(true)
      expect(nodeSets(clusterGraph(TRIANGLES, { ...options, use_lcc: true }).clusters)).toEqual([['A', 'B', 'C']])
    })

    it('gives the same clusters for reversed edges and for duplicate reversed pairs', () => {
      const expected = clusterGraph(TRIANGLES, options)
      const reversed = TRIANGLES.map((e) => edge(e.target, e.source, e.weight))
      expect(clusterGraph(reversed, options)).toEqual(expected)
      expect(clusterGraph([...TRIANGLES, ...reversed], options)).toEqual(expected)
      const dedup = clusterGraph([edge('A', 'B', 1), edge('B', 'A', 2), edge('A', 'C', 1), edge('B', 'C', 1)], options)
      expect(nodeSets(dedup.clusters)).toEqual([['A', 'B', 'C']])
    })

    it('treats a missing weight as 1', () => {
      const unweighted = TRIANGLES.map((e) => edge(e.source, e.target))
      expect(clusterGraph(unweighted, options)).toEqual(clusterGraph(TRIANGLES, options))
    })

    it('is deterministic for a seed and leaves its input unchanged', () => {
      const ring = Array.from({ length: 40 }, (_, i) => edge(`n${i}`, `n${(i + 1) % 40}`, 1 + (i % 3)))
      const relationships = [...ring, ...ring.slice(0, 20).map((e, i) => edge(e.source, `n${(i * 7 + 11) % 40}`, 2))]
      const copy = structuredClone(relationships)
      for (const r of relationships) Object.freeze(r)
      const first = clusterGraph(relationships, { ...options, max_cluster_size: 5 })
      expect(clusterGraph(relationships, { ...options, max_cluster_size: 5 })).toEqual(first)
      expect(first.clusters.some((c) => c.level > 0)).toBe(true)
      expect(relationships).toEqual(copy)
    })
  })
}
