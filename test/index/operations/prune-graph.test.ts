import { describe, expect, it } from 'vitest'
import {
  degreeMap,
  percentile,
  pruneGraph,
  upperThreshold,
  type PruneGraphOptions,
} from '../../../src/index/operations/prune-graph.js'

const OFF: PruneGraphOptions = {
  min_node_freq: 0,
  max_node_freq_std: null,
  min_node_degree: 0,
  max_node_degree_std: null,
  min_edge_weight_pct: 0,
  remove_ego_nodes: false,
  lcc_only: false,
}

const e = (title: string, frequency = 1) => ({ title, frequency })
const r = (source: string, target: string, weight = 1) => ({ source, target, weight })

describe('helpers', () => {
  it('percentile interpolates linearly like numpy', () => {
    expect(percentile([1, 2, 3, 4, 10], 40)).toBeCloseTo(2.6, 12)
    expect(percentile([0.5, -0.2, 3, 3, 7, 1], 37.5)).toBeCloseTo(0.9375, 12)
    expect(percentile([5], 40)).toBe(5)
    expect(percentile([1, 2], 100)).toBe(2)
  })
  it('upperThreshold uses the population standard deviation', () => {
    expect(upperThreshold([1, 2, 3, 4, 10], 1)).toBeCloseTo(4 + 3.1622776601683795, 12)
  })
  it('degreeMap counts unique unordered pairs, self-loops twice, and adds isolates last', () => {
    const map = degreeMap([e('Z'), e('B'), e('ISO')], [r('B', 'A'), r('A', 'B'), r('C', 'C'), r('A', 'C')])
    expect([...map]).toEqual([
      ['A', 2],
      ['B', 1],
      ['C', 3],
      ['Z', 0],
      ['ISO', 0],
    ])
  })

  it('degreeMap counts a pair repeated in order once, as it does out of order (no key per pair for ordered unique pairs)', () => {
    const ordered = [r('A', 'B'), r('A', 'C'), r('B', 'C')]
    expect([...degreeMap([], ordered)]).toEqual([
      ['A', 2],
      ['B', 2],
      ['C', 2],
    ])
    // Ascending but with a repeat, then a pair written both ways round: each still counts once.
    expect([...degreeMap([], [r('A', 'B'), r('A', 'B'), r('A', 'C')])]).toEqual([
      ['A', 2],
      ['B', 1],
      ['C', 1],
    ])
    expect([...degreeMap([], [r('A', 'B'), r('B', 'C'), r('C', 'B')])]).toEqual([
      ['A', 1],
      ['B', 2],
      ['C', 1],
    ])
  })
})

describe('pruneGraph', () => {
  const entities = [e('HUB', 5), e('A', 3), e('B', 2), e('C', 1), e('D', 9), e('ISO', 4)]
  const rels = [
    r('A', 'HUB', 0.5),
    r('B', 'HUB', 0.1),
    r('C', 'HUB', 0.9),
    r('D', 'HUB', 0.3),
    r('A', 'B', 0.7),
    r('C', 'D', 0.2),
  ]

  it('keeps everything with every rule off', () => {
    const out = pruneGraph(entities, rels, OFF)
    expect(out.entities).toEqual(entities)
    expect(out.relationships).toEqual(rels)
  })
  it('removes the single highest-degree node as ego, and its relationships', () => {
    const out = pruneGraph(entities, rels, { ...OFF, remove_ego_nodes: true })
    expect(out.entities.map((x) => x.title)).toEqual(['A', 'B', 'C', 'D', 'ISO'])
    expect(out.relationships).toEqual([r('A', 'B', 0.7), r('C', 'D', 0.2)])
  })
  it('removes low-degree nodes and nodes above mean + k·std of degree (stats over all nodes)', () => {
    expect(pruneGraph(entities, rels, { ...OFF, min_node_degree: 1 }).entities.map((x) => x.title)).not.toContain('ISO')
    // degrees: HUB 4, A 2, B 2, C 2, D 2, ISO 0 → mean 2, std ≈ 1.155; k = 1 → ceiling ≈ 3.15
    const out = pruneGraph(entities, rels, { ...OFF, max_node_degree_std: 1 })
    expect(out.entities.map((x) => x.title)).toEqual(['A', 'B', 'C', 'D', 'ISO'])
  })
  it('removes low-frequency entities, then those above mean + k·std of the remaining frequencies', () => {
    expect(pruneGraph(entities, rels, { ...OFF, min_node_freq: 2 }).entities.map((x) => x.title)).toEqual([
      'HUB',
      'A',
      'B',
      'D',
      'ISO',
    ])
    // after min_node_freq 2: 5,3,2,9,4 → mean 4.6, std ≈ 2.42; k = 1 → ceiling ≈ 7.02 removes D only
    const out = pruneGraph(entities, rels, { ...OFF, min_node_freq: 2, max_node_freq_std: 1 })
    expect(out.entities.map((x) => x.title)).toEqual(['HUB', 'A', 'B', 'ISO'])
    expect(out.relationships).toEqual([r('A', 'HUB', 0.5), r('B', 'HUB', 0.1), r('A', 'B', 0.7)])
  })
  it('drops relationships below the weight percentile but keeps the entities they isolate', () => {
    // weights 0.1 0.2 0.3 0.5 0.7 0.9; 40th percentile = 0.3 (rank 2)
    const out = pruneGraph(entities, rels, { ...OFF, min_edge_weight_pct: 40 })
    expect(out.relationships.map((x) => x.weight)).toEqual([0.5, 0.9, 0.3, 0.7])
    expect(out.entities).toHaveLength(6)
  })
  it('keeps only the largest connected component when lcc_only', () => {
    const two = [r('A', 'B'), r('B', 'C'), r('D', 'ISO')]
    const out = pruneGraph(entities, two, { ...OFF, lcc_only: true })
    expect(out.entities.map((x) => x.title)).toEqual(['A', 'B', 'C'])
    expect(out.relationships).toEqual([r('A', 'B'), r('B', 'C')])
  })
  it('keeps extra row fields (generic rows)', () => {
    const rows = [{ title: 'A', frequency: 2, type: 'NOUN PHRASE' }]
    expect(pruneGraph(rows, [], OFF).entities[0].type).toBe('NOUN PHRASE')
  })
})
