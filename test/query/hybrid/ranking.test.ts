import { describe, expect, it } from 'vitest'
import type { ChunkEdgeRow } from '../../../src/model/index.js'
import { edgeBonuses, entityBonuses, type BonusWeights } from '../../../src/query/hybrid/bonuses.js'
import { normaliseFused, reciprocalRankFusion } from '../../../src/query/hybrid/fusion.js'
import { rankCandidates } from '../../../src/query/hybrid/ranking.js'

const hits = (...ids: string[]) => ids.map((id, i) => ({ id, score: 1 - i / 10 }))
const WEIGHTS: BonusWeights = {
  sharedEntity: 0.15,
  cooccurrence: 0.1,
  degree: 0,
  edgeWeights: { caused_by: 0.22, elaborates: 0.2, references: 0.18, part_of: 0.15, default: 0.15 },
}
const edge = (id: string, source_id: string, target_id: string, relation: string, weight: number): ChunkEdgeRow => ({
  id,
  source_id,
  target_id,
  relation,
  weight,
  description: '',
  origin: 'llm',
})

describe('reciprocal rank fusion', () => {
  it('scores a unit ranked 0 and 1 in two lists 1/61 + 1/62 (k = 60)', () => {
    const fused = reciprocalRankFusion(
      [
        { signal: 'vector', hits: hits('a', 'b') },
        { signal: 'bm25', hits: hits('b', 'a') },
      ],
      60,
    )
    expect(fused.map((c) => c.id)).toEqual(['a', 'b'])
    expect(fused[0]!.fused).toBe(1 / 61 + 1 / 62)
    expect(fused[1]!.fused).toBe(1 / 62 + 1 / 61)
    expect(fused[0]!.signals).toEqual({ vector: { rank: 0, score: 1 }, bm25: { rank: 1, score: 0.9 } })
  })

  it('ranks a unit found by more lists first, breaks ties by id, and normalises by the best score', () => {
    const fused = reciprocalRankFusion(
      [
        { signal: 'vector', hits: hits('x', 'y') },
        { signal: 'bm25', hits: hits('y') },
        { signal: 'graph', hits: hits('z') },
      ],
      60,
    )
    expect(fused.map((c) => [c.id, c.fused])).toEqual([
      ['y', 1 / 62 + 1 / 61],
      ['x', 1 / 61],
      ['z', 1 / 61],
    ])
    expect(normaliseFused(fused)).toEqual([1, 1 / 61 / (1 / 62 + 1 / 61), 1 / 61 / (1 / 62 + 1 / 61)])
  })
})

describe('bonuses', () => {
  it('shared entities and co-occurrence are weighted shares of the question entities and their pairs', () => {
    const question = new Set(['e1', 'e2', 'e3'])
    expect(entityBonuses(new Set(['e1', 'e2', 'x']), question, new Map(), WEIGHTS)).toEqual({
      shared_entities: 0.15 * (2 / 3),
      cooccurrence: 0.1 * (1 / 3),
      degree: 0,
    })
    expect(entityBonuses(new Set(['x']), question, new Map(), WEIGHTS)).toEqual({
      shared_entities: 0,
      cooccurrence: 0,
      degree: 0,
    })
    expect(entityBonuses(new Set(['e1']), new Set(['e1']), new Map(), WEIGHTS)).toEqual({
      shared_entities: 0.15,
      cooccurrence: 0,
      degree: 0,
    })
  })

  it('degree centrality counts only when weighted', () => {
    const degree = new Map([
      ['e1', 1],
      ['e2', 0.5],
    ])
    expect(entityBonuses(new Set(['e1', 'e2']), new Set(), degree, { ...WEIGHTS, degree: 0.05 }).degree).toBeCloseTo(
      0.05 * 0.75,
    )
    expect(entityBonuses(new Set(['e1', 'e2']), new Set(), degree, WEIGHTS).degree).toBe(0)
  })

  it('a chunk edge from a seed gives relation weight × confidence, both directions, best edge kept', () => {
    const links = edgeBonuses(
      ['s'],
      [
        edge('1', 's', 'a', 'references', 0.5),
        edge('2', 'b', 's', 'caused_by', 1),
        edge('3', 's', 'b', 'similar_to', 1),
        edge('4', 'x', 'y', 'caused_by', 1),
        edge('5', 's', 's', 'caused_by', 1),
      ],
      WEIGHTS,
    )
    expect(Object.fromEntries(links)).toEqual({
      a: { from: 's', relation: 'references', confidence: 0.5, bonus: 0.18 * 0.5 },
      b: { from: 's', relation: 'caused_by', confidence: 1, bonus: 0.22 },
    })
  })

  it('composite = fused_norm + Σ bonuses; an edge brings in a unit no list held (reason edge)', () => {
    const ranked = rankCandidates({
      lists: [
        { signal: 'vector', hits: hits('a', 'b') },
        { signal: 'bm25', hits: hits('a') },
      ],
      graphDetail: new Map(),
      rrfK: 60,
      edgeSeedK: 1,
      edges: [edge('1', 'a', 'c', 'elaborates', 0.9), edge('2', 'a', 'ghost', 'elaborates', 1)],
      unitEntities: new Map([['b', new Set(['e1'])]]),
      questionEntities: new Set(['e1']),
      degreeShare: new Map(),
      weights: WEIGHTS,
      knownUnits: new Set(['a', 'b', 'c']),
    })
    const top = 1 / 61 + 1 / 61
    expect(ranked.map((c) => [c.id, c.rank, c.reason])).toEqual([
      ['a', 0, 'vector'],
      ['b', 1, 'vector'],
      ['c', 2, 'edge'],
    ])
    expect(ranked[0]!.composite).toBe(1)
    expect(ranked[1]!.composite).toBeCloseTo(1 / 62 / top + 0.15, 12)
    expect(ranked[2]!.composite).toBeCloseTo(0.2 * 0.9, 12)
    expect(ranked[2]!.edge).toEqual({ from: 'a', relation: 'elaborates', confidence: 0.9, bonus: 0.2 * 0.9 })
  })
})
