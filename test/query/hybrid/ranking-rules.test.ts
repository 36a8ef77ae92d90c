/**
 * The tie rules, clamps and fall-backs of hybrid scoring (fusion.ts, bonuses.ts, ranking.ts) that
 * mutation testing found unpinned: which list a candidate is "in" on equal ranks, which seed an edge
 * bonus is credited to on equal bonuses, how an edge's weight becomes a confidence, and the
 * `--explain` sentence of why a passage is in the ranking.
 */
import { describe, expect, it } from 'vitest'
import type { ChunkEdgeRow } from '../../../src/model/index.js'
import { degreeShares, edgeBonuses, entityBonuses, type BonusWeights } from '../../../src/query/hybrid/bonuses.js'
import { leadingSignal, normaliseFused, reciprocalRankFusion } from '../../../src/query/hybrid/fusion.js'
import { rankCandidates, whyIncluded, type RankingInput } from '../../../src/query/hybrid/ranking.js'

const hits = (...ids: string[]) => ids.map((id, i) => ({ id, score: 1 - i / 10 }))
const WEIGHTS: BonusWeights = {
  sharedEntity: 0.15,
  cooccurrence: 0.1,
  degree: 0,
  edgeWeights: { caused_by: 0.22, elaborates: 0.2, default: 0.15 },
}
const edge = (
  id: string,
  source_id: string,
  target_id: string,
  relation: string,
  weight: number | null,
): ChunkEdgeRow => ({ id, source_id, target_id, relation, weight, description: '', origin: 'llm' }) as ChunkEdgeRow

const input = (over: Partial<RankingInput>): RankingInput => ({
  lists: [],
  graphDetail: new Map(),
  rrfK: 60,
  edgeSeedK: 10,
  edges: [],
  unitEntities: new Map(),
  questionEntities: new Set(),
  degreeShare: new Map(),
  weights: WEIGHTS,
  knownUnits: new Set(),
  ...over,
})

describe('fusion', () => {
  it('a list naming an id twice counts its best rank only', () => {
    const [a] = reciprocalRankFusion([{ signal: 'bm25', hits: [...hits('a', 'b'), { id: 'a', score: 0.1 }] }], 60)
    expect(a).toEqual({ id: 'a', signals: { bm25: { rank: 0, score: 1 } }, fused: 1 / 61 })
  })

  it('the leading signal is the best rank, vector before bm25 before graph on equal ranks', () => {
    expect(leadingSignal({ graph: { rank: 0, score: 1 }, vector: { rank: 2, score: 1 } })).toBe('graph')
    expect(leadingSignal({ bm25: { rank: 1, score: 1 }, graph: { rank: 3, score: 1 } })).toBe('bm25')
    expect(
      leadingSignal({ graph: { rank: 1, score: 1 }, bm25: { rank: 1, score: 1 }, vector: { rank: 1, score: 1 } }),
    ).toBe('vector')
    expect(leadingSignal({ graph: { rank: 1, score: 1 }, bm25: { rank: 1, score: 1 } })).toBe('bm25')
    expect(leadingSignal({})).toBeUndefined()
  })

  it('normalising nothing fused gives zeros, not NaN', () => {
    expect(normaliseFused([{ fused: 0 }, { fused: 0 }])).toEqual([0, 0])
    expect(normaliseFused([])).toEqual([])
  })
})

describe('edge bonuses', () => {
  it("reads an edge's weight as a confidence clamped to [0, 1], a missing weight as 0", () => {
    const links = edgeBonuses(
      ['s'],
      [
        edge('1', 's', 'a', 'caused_by', 3),
        edge('2', 's', 'b', 'caused_by', -2),
        edge('3', 's', 'c', 'caused_by', null),
      ],
      WEIGHTS,
    )
    expect(links.get('a')).toEqual({ from: 's', relation: 'caused_by', confidence: 1, bonus: 0.22 })
    expect(links.get('b')).toMatchObject({ confidence: 0, bonus: 0 })
    expect(links.get('c')).toMatchObject({ confidence: 0, bonus: 0 })
  })

  it('weighs a relation not listed by `default`, and by 0 when there is no default', () => {
    const edges = [edge('1', 's', 'a', 'mentions', 1)]
    expect(edgeBonuses(['s'], edges, WEIGHTS).get('a')?.bonus).toBe(0.15)
    expect(edgeBonuses(['s'], edges, { ...WEIGHTS, edgeWeights: { caused_by: 0.22 } }).get('a')?.bonus).toBe(0)
  })

  it('on equal bonuses credits the better-ranked seed, whatever the edge order', () => {
    // Edge '1' (met first) comes from the second seed; edge '2' from the first seed gives the same bonus.
    const links = edgeBonuses(
      ['s1', 's2'],
      [edge('1', 's2', 'x', 'elaborates', 1), edge('2', 'x', 's1', 'elaborates', 1)],
      WEIGHTS,
    )
    expect(links.get('x')).toMatchObject({ from: 's1', bonus: 0.2 })
    // A better bonus wins over seed rank; a worse one never replaces it.
    const better = edgeBonuses(
      ['s1', 's2'],
      [edge('1', 's1', 'x', 'elaborates', 0.5), edge('2', 's2', 'x', 'caused_by', 1)],
      WEIGHTS,
    )
    expect(better.get('x')).toMatchObject({ from: 's2', relation: 'caused_by' })
    const worse = edgeBonuses(
      ['s1', 's2'],
      [edge('1', 's1', 'x', 'caused_by', 1), edge('2', 's2', 'x', 'elaborates', 1)],
      WEIGHTS,
    )
    expect(worse.get('x')).toMatchObject({ from: 's1', relation: 'caused_by' })
    // Nor does a worse bonus from a better-ranked seed met later.
    const later = edgeBonuses(
      ['s1', 's2'],
      [edge('1', 's2', 'x', 'caused_by', 1), edge('2', 's1', 'x', 'elaborates', 1)],
      WEIGHTS,
    )
    expect(later.get('x')).toMatchObject({ from: 's2', relation: 'caused_by' })
  })

  it('degree shares are each degree over the largest, all 0 in a graph without edges', () => {
    expect(
      degreeShares([
        { id: 'a', degree: 4 },
        { id: 'b', degree: 1 },
        { id: 'c', degree: null },
      ]),
    ).toEqual(
      new Map([
        ['a', 1],
        ['b', 0.25],
        ['c', 0],
      ]),
    )
    expect(degreeShares([{ id: 'a', degree: 0 }])).toEqual(new Map([['a', 0]]))
  })

  it('the degree bonus of a passage naming no entity is 0, and a question without entities gives no entity bonus', () => {
    expect(entityBonuses(new Set(), new Set(['e1']), new Map(), { ...WEIGHTS, degree: 1 }).degree).toBe(0)
    const degree = new Map([['e1', 1]])
    expect(entityBonuses(new Set(['e1', 'zz']), new Set(), degree, { ...WEIGHTS, degree: 1 })).toEqual({
      shared_entities: 0,
      cooccurrence: 0,
      degree: 0.5,
    })
  })

  it('a passage naming all three question entities names all three of their pairs', () => {
    const three = new Set(['e1', 'e2', 'e3'])
    expect(entityBonuses(three, three, new Map(), WEIGHTS)).toEqual({
      shared_entities: 0.15,
      cooccurrence: 0.1,
      degree: 0,
    })
  })

  it('on equal bonuses from one seed keeps the edge first by id, whatever the input order', () => {
    const weights = { ...WEIGHTS, edgeWeights: { ...WEIGHTS.edgeWeights, part_of: 0.15 } }
    const edges = [
      edge('b', 's', 'x', 'part_of', 1),
      edge('a', 's', 'x', 'mentions', 1),
      edge('c', 's', 'x', 'part_of', 1),
    ]
    expect(edgeBonuses(['s'], edges, weights).get('x')).toMatchObject({ relation: 'mentions', bonus: 0.15 })
    expect(edgeBonuses(['s'], [...edges].reverse(), weights).get('x')).toMatchObject({ relation: 'mentions' })
  })
})

describe('rankCandidates', () => {
  it('takes edge seeds from the top edgeSeedK fused candidates only', () => {
    const ranked = rankCandidates(
      input({
        lists: [{ signal: 'vector', hits: hits('a', 'b') }],
        edgeSeedK: 1,
        edges: [edge('1', 'b', 'c', 'elaborates', 1)],
        knownUnits: new Set(['a', 'b', 'c']),
      }),
    )
    expect(ranked.map((c) => c.id)).toEqual(['a', 'b'])
  })

  it('breaks equal composite scores by id and numbers the ranks from 0', () => {
    const ranked = rankCandidates(
      input({
        lists: [
          { signal: 'vector', hits: hits('b') },
          { signal: 'bm25', hits: hits('a') },
        ],
      }),
    )
    expect(ranked.map((c) => [c.id, c.rank, c.composite])).toEqual([
      ['a', 0, 1],
      ['b', 1, 1],
    ])
  })

  it('sorts by composite score: bonuses lift a passage above one fused higher', () => {
    const ranked = rankCandidates(
      input({
        lists: [{ signal: 'vector', hits: hits('a', 'b') }],
        unitEntities: new Map([['b', new Set(['e1'])]]),
        questionEntities: new Set(['e1']),
        weights: { ...WEIGHTS, sharedEntity: 0.5 },
      }),
    )
    expect(ranked.map((c) => [c.id, c.rank])).toEqual([
      ['b', 0],
      ['a', 1],
    ])
  })

  it('keeps no edge on a candidate whose edge bonus is 0, and graph detail only with a graph hit', () => {
    const ranked = rankCandidates(
      input({
        lists: [
          { signal: 'vector', hits: hits('a', 'b') },
          { signal: 'graph', hits: hits('b') },
        ],
        graphDetail: new Map([
          ['a', { hops: 1, entity: 'E' }],
          ['b', { hops: 2, entity: 'F' }],
        ]),
        edges: [edge('1', 'a', 'b', 'elaborates', 0)],
        knownUnits: new Set(['a', 'b']),
      }),
    )
    const [b, a] = ranked
    expect(b).toMatchObject({ id: 'b', graph: { hops: 2, entity: 'F' }, edge: undefined })
    expect(a!.id).toBe('a')
    expect('graph' in a!).toBe(false)
  })
})

describe('whyIncluded', () => {
  const label = (id: string) => `unit ${id}`
  const base = rankCandidates(
    input({
      lists: [
        { signal: 'vector', hits: hits('s', 'a') },
        { signal: 'bm25', hits: hits('a') },
        { signal: 'graph', hits: hits('z', 'a') },
      ],
      graphDetail: new Map([
        ['a', { hops: 1, entity: 'ALPHA' }],
        ['z', { hops: 2, entity: 'BETA' }],
      ]),
      // Seeds: a (in three lists) and s.
      edgeSeedK: 2,
      edges: [edge('1', 's', 'a', 'elaborates', 0.5), edge('2', 's', 'c', 'caused_by', 0.75)],
      unitEntities: new Map([['a', new Set(['e1'])]]),
      questionEntities: new Set(['e1']),
      knownUnits: new Set(['s', 'a', 'z', 'c']),
    }),
  )
  const of = (id: string) => base.find((c) => c.id === id)!

  it('lists each candidate once: an edge to a passage a list already holds adds a bonus, not a row', () => {
    expect(base.map((c) => c.id).sort()).toEqual(['a', 'c', 's', 'z'])
  })

  it('composite = fused_norm + the four bonuses', () => {
    const ranked = rankCandidates(
      input({
        lists: [{ signal: 'vector', hits: hits('s', 'a') }],
        edges: [edge('1', 's', 'a', 'elaborates', 1)],
        unitEntities: new Map([['a', new Set(['e1', 'e2'])]]),
        questionEntities: new Set(['e1', 'e2']),
        degreeShare: new Map([
          ['e1', 1],
          ['e2', 0.5],
        ]),
        weights: { ...WEIGHTS, degree: 0.1 },
        knownUnits: new Set(['s', 'a']),
      }),
    )
    const a = ranked.find((c) => c.id === 'a')!
    expect(a.bonuses).toEqual({ shared_entities: 0.15, cooccurrence: 0.1, edge: 0.2, degree: expect.closeTo(0.075) })
    expect(a.composite).toBeCloseTo(61 / 62 + 0.15 + 0.1 + 0.2 + 0.075, 12)
  })

  it('names each list with its 1-based rank, the hops and entity of the graph path, the edge and the entities', () => {
    expect(whyIncluded(of('a'), label)).toBe(
      'vector #2, bm25 #1, graph #2 (1 hop from ALPHA), edge elaborates from unit s (conf 0.50), names question entities',
    )
    expect(whyIncluded(of('z'), label)).toBe('graph #1 (2 hops from BETA)')
    expect(whyIncluded(of('c'), label)).toBe('edge caused_by from unit s (conf 0.75)')
    expect(of('c').reason).toBe('edge')
  })

  it('shows ? for a graph hit without its detail', () => {
    expect(whyIncluded({ ...of('z'), graph: undefined }, label)).toBe('graph #1 (? hops from ?)')
  })
})
