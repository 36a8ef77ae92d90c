/**
 * hybrid_search.scoring: weighted (the Evolution RAG design's composite) beside the RRF default:
 * the weighted base from normalised vector and BM25 scores, and edge bonuses summed over relation types.
 */
import { describe, expect, it } from 'vitest'
import { validateSettings } from '../../../src/config/validate.js'
import type { ChunkEdgeRow } from '../../../src/model/index.js'
import type { BonusWeights } from '../../../src/query/hybrid/bonuses.js'
import { rankCandidates, type RankingInput } from '../../../src/query/hybrid/ranking.js'

const WEIGHTS: BonusWeights = {
  sharedEntity: 0.15,
  cooccurrence: 0.1,
  degree: 0,
  edgeWeights: { supports: 0.2, follows: 0.16, related_to: 0.15, default: 0.15 },
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

function input(scoring: RankingInput['scoring'], edges: ChunkEdgeRow[] = []): RankingInput {
  return {
    lists: [
      // Cosine similarities and BM25 scores: b is far behind a by vector, far ahead by BM25.
      {
        signal: 'vector',
        hits: [
          { id: 'a', score: 0.8 },
          { id: 'b', score: 0.2 },
        ],
      },
      {
        signal: 'bm25',
        hits: [
          { id: 'b', score: 12 },
          { id: 'c', score: 6 },
        ],
      },
      { signal: 'graph', hits: [{ id: 'd', score: 0.5 }] },
    ],
    graphDetail: new Map(),
    rrfK: 60,
    edgeSeedK: 1,
    edges,
    unitEntities: new Map(),
    questionEntities: new Set(),
    degreeShare: new Map(),
    weights: WEIGHTS,
    knownUnits: new Set(['a', 'b', 'c', 'd', 'e']),
    scoring,
  }
}

const scores = (ranked: ReturnType<typeof rankCandidates>) => ranked.map((c) => [c.id, c.composite])

describe('scoring: weighted', () => {
  it('scores norm(vector) + bm25_weight × norm(bm25); the graph list only brings candidates', () => {
    const ranked = rankCandidates(input({ mode: 'weighted', bm25Weight: 0.4 }))
    expect(scores(ranked)).toEqual([
      ['a', 1],
      ['b', 0.25 + 0.4],
      ['c', 0.4 * 0.5],
      ['d', 0],
    ])
    expect(ranked.map((c) => c.fusedNorm)).toEqual([1, 0.65, 0.2, 0])
  })

  it('follows bm25_weight', () => {
    const ranked = rankCandidates(input({ mode: 'weighted', bm25Weight: 1 }))
    expect(scores(ranked)).toEqual([
      ['b', 1.25],
      ['a', 1],
      ['c', 0.5],
      ['d', 0],
    ])
  })

  it('differs from RRF, which ranks b (in two lists) first', () => {
    expect(rankCandidates(input({ mode: 'rrf' }))[0]!.id).toBe('b')
    expect(rankCandidates(input(undefined))[0]!.id).toBe('b')
  })

  it('sums edge bonuses over relation types (the best link of each), where RRF keeps the best edge', () => {
    // Seed: the top candidate by the base (a for weighted). e is linked from a by two types, c by one type twice.
    const edges = [
      edge('1', 'a', 'e', 'supports', 0.5),
      edge('2', 'a', 'e', 'follows', 1),
      edge('3', 'a', 'c', 'supports', 0.5),
      edge('4', 'c', 'a', 'supports', 1),
    ]
    const weighted = rankCandidates(input({ mode: 'weighted', bm25Weight: 0.4 }, edges))
    const e = weighted.find((c) => c.id === 'e')!
    expect(e.bonuses.edge).toBeCloseTo(0.2 * 0.5 + 0.16 * 1, 12)
    expect(e.edge).toMatchObject({ from: 'a', relation: 'follows', confidence: 1 })
    // Two supports links between a and c: only the best (1.0) counts.
    expect(weighted.find((c) => c.id === 'c')!.bonuses.edge).toBeCloseTo(0.2, 12)
    const rrf = rankCandidates({ ...input({ mode: 'rrf' }, edges), lists: input(undefined).lists.slice(0, 1) })
    expect(rrf.find((c) => c.id === 'e')!.bonuses.edge).toBeCloseTo(0.16, 12)
  })

  it('is a setting of hybrid_search (default weighted, bm25_weight 0.4, degree_weight 0.1)', () => {
    const parse = (hybrid_search: Record<string, unknown>) => {
      const result = validateSettings({ hybrid_search }, { root: '/project' })
      if (!result.ok) throw new Error(result.errors.join('\n'))
      return result.settings.hybrid_search
    }
    expect(parse({})).toMatchObject({ scoring: 'weighted', bm25_weight: 0.4, degree_weight: 0.1 })
    expect(parse({ scoring: 'weighted', bm25_weight: 0.7 })).toMatchObject({ scoring: 'weighted', bm25_weight: 0.7 })
    const bad = validateSettings({ hybrid_search: { scoring: 'sum' } }, { root: '/project' })
    expect(bad.ok ? '' : bad.errors.join('\n')).toContain('hybrid_search.scoring')
  })
})
