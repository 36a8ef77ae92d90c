// Edge cases of spec leiden.md §11.10 and §11.12: empty input, self-loops, duplicate and reversed
// edges, trivial graphs and invalid input.
import { describe, expect, it } from 'vitest'
import { InvalidGraphError } from '../../../src/errors.js'
import { buildNetwork, hierarchicalLeiden, type WeightedEdge } from '../../../src/graph/leiden/index.js'

const triangle = (p: string): WeightedEdge[] => [
  [`${p}a`, `${p}b`, 1],
  [`${p}b`, `${p}c`, 1],
  [`${p}a`, `${p}c`, 1],
]

describe('hierarchicalLeiden edge cases', () => {
  for (const mode of ['compat', 'quality'] as const) {
    it(`${mode}: empty input gives no clusters`, () => {
      expect(hierarchicalLeiden([], { mode })).toEqual([])
    })

    it(`${mode}: a triangle is one level-0 community without parent`, () => {
      const out = hierarchicalLeiden(triangle('x'), { mode })
      expect(out.map((e) => [e.node, e.cluster, e.level, e.parentCluster, e.isFinal])).toEqual([
        ['xa', 0, 0, null, true],
        ['xb', 0, 0, null, true],
        ['xc', 0, 0, null, true],
      ])
    })

    it(`${mode}: two disjoint triangles give two communities`, () => {
      const out = hierarchicalLeiden([...triangle('x'), ...triangle('y')], { mode })
      expect(new Set(out.map((e) => e.cluster)).size).toBe(2)
      expect(out).toHaveLength(6)
    })

    it(`${mode}: a duplicate pair keeps its first weight`, () => {
      const base = [...triangle('x'), ...triangle('y'), ['xa', 'ya', 1] as const]
      const dup: WeightedEdge[] = [...base, ['ya', 'xa', 50]]
      expect(hierarchicalLeiden(dup, { mode, seed: 3 })).toEqual(hierarchicalLeiden(base, { mode, seed: 3 }))
      // And the network really uses weight 1 for the pair.
      const { network, labels } = buildNetwork(dup)
      const xa = labels.indexOf('xa')
      expect(network.nodeWeights[xa]).toBe(3)
    })

    it(`${mode}: self-loops stay out of adjacency and degree, are counted once, and keep nodes`, () => {
      const edges: WeightedEdge[] = [...triangle('x'), ['xa', 'xa', 5], ['xa', 'xa', 7], ['lonely', 'lonely', 1]]
      const { network, labels } = buildNetwork(edges)
      expect(network.selfLoopWeight).toBe(6)
      expect(network.nodeWeights[labels.indexOf('xa')]).toBe(2)
      const out = hierarchicalLeiden(edges, { mode })
      expect(out.filter((e) => e.node === 'lonely')).toHaveLength(1)
      expect(new Set(out.filter((e) => e.node.startsWith('x')).map((e) => e.cluster)).size).toBe(1)
    })

    it(`${mode}: zero weights are accepted; a graph of only zero-weight edges stays as singletons`, () => {
      const out = hierarchicalLeiden(
        [
          ['a', 'b', 0],
          ['b', 'c', 0],
        ],
        { mode },
      )
      expect(out.map((e) => [e.node, e.level, e.isFinal])).toEqual([
        ['a', 0, true],
        ['b', 0, true],
        ['c', 0, true],
      ])
      expect(new Set(out.map((e) => e.cluster)).size).toBe(3)
    })

    it(`${mode}: max cluster size 1 skips singleton splits instead of failing`, () => {
      const out = hierarchicalLeiden([...triangle('x'), ...triangle('y'), ['xa', 'ya', 0.5]], {
        mode,
        maxClusterSize: 1,
      })
      expect(out.filter((e) => e.isFinal)).toHaveLength(6)
    })
  }

  it('rejects NaN, infinite and negative weights and non-string ids', () => {
    for (const bad of [Number.NaN, Infinity, -1]) {
      expect(() => hierarchicalLeiden([['a', 'b', bad]])).toThrow(InvalidGraphError)
    }
    expect(() => hierarchicalLeiden([['a', 3 as unknown as string, 1]])).toThrow(InvalidGraphError)
    expect(() => hierarchicalLeiden([['a', 'b']] as unknown as WeightedEdge[])).toThrow(InvalidGraphError)
  })

  it('rejects invalid options', () => {
    const edges = triangle('x')
    expect(() => hierarchicalLeiden(edges, { maxClusterSize: 0 })).toThrow(InvalidGraphError)
    expect(() => hierarchicalLeiden(edges, { randomness: 0 })).toThrow(InvalidGraphError)
    expect(() => hierarchicalLeiden(edges, { resolution: -1 })).toThrow(InvalidGraphError)
    expect(() => hierarchicalLeiden(edges, { maxIterations: 0 })).toThrow(InvalidGraphError)
    for (const tolerance of [-0.1, 1, Number.NaN])
      expect(() => hierarchicalLeiden(edges, { tolerance })).toThrow(InvalidGraphError)
    for (const restarts of [0, 1.5, Number.NaN])
      expect(() => hierarchicalLeiden(edges, { restarts })).toThrow(InvalidGraphError)
    expect(() => hierarchicalLeiden(edges, { mode: 'fast' as 'compat' })).toThrow(InvalidGraphError)
  })
})
