// Compat mode against graspologic-native's own output (../shared/leiden, spec leiden.md §11).
import { readFileSync } from 'node:fs'
import { expect, it } from 'vitest'
import { hierarchicalLeiden, type HierarchicalCluster, type WeightedEdge } from '../../../src/graph/leiden/index.js'
import { describeShared, sharedPath } from '../../support/shared.js'

function readEdges(file: string): WeightedEdge[] {
  return readFileSync(sharedPath('leiden', file), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => {
      const [s, t, w] = l.split('\t')
      return [s, t, Number(w)] as const
    })
}

function format(entries: HierarchicalCluster[]): string[] {
  return entries.map((e) => `${e.node}\t${e.cluster}\t${e.level}\t${e.parentCluster ?? -1}\t${e.isFinal}`)
}

function readExpected(file: string): string[] {
  return readFileSync(sharedPath('leiden', file), 'utf8')
    .split('\n')
    .filter((l) => l.length > 0)
}

const CASES = [
  {
    edges: 'graphrag_christmas_carol_lcc_edges.tsv',
    expected: 'graphrag_christmas_carol_expected_seed3735928559_max10.tsv',
    seed: 3735928559,
  },
  {
    edges: 'graphrag_christmas_carol_lcc_edges.tsv',
    expected: 'graphrag_christmas_carol_expected_seed42_max10.tsv',
    seed: 42,
  },
  {
    edges: 'karate_unweighted_edges.tsv',
    expected: 'karate_unweighted_expected_seed3735928559_max10.tsv',
    seed: 3735928559,
  },
  {
    edges: 'ring_of_cliques_30x5_edges.tsv',
    expected: 'ring_of_cliques_30x5_expected_seed3735928559_max10.tsv',
    seed: 3735928559,
  },
]

describeShared('hierarchicalLeiden compat mode: golden files', () => {
  for (const c of CASES) {
    it(`reproduces ${c.expected} line for line`, () => {
      const out = hierarchicalLeiden(readEdges(c.edges), { mode: 'compat', seed: c.seed, maxClusterSize: 10 })
      expect(format(out)).toEqual(readExpected(c.expected))
    })
  }

  it('gives GraphRAG pinned cluster counts per level on its fixture', () => {
    const out = hierarchicalLeiden(readEdges('graphrag_christmas_carol_lcc_edges.tsv'), { mode: 'compat' })
    const perLevel = new Map<number, Set<number>>()
    for (const e of out) {
      if (!perLevel.has(e.level)) perLevel.set(e.level, new Set())
      perLevel.get(e.level)?.add(e.cluster)
    }
    expect(Object.fromEntries([...perLevel].map(([l, s]) => [l, s.size]))).toEqual({ 0: 23, 1: 65, 2: 32, 3: 2 })
  })
})
