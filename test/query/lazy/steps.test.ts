// The pure steps of lazy search: budget accounting, unit and community ranking, the deepening walk and
// its stop rule, claim ranking and trimming, and citation resolution.
import { describe, expect, it } from 'vitest'
import { RelevanceBudget, splitBudget } from '../../../src/query/lazy/budget.js'
import { checkLazyCitations, citedSourceLabels } from '../../../src/query/lazy/citations.js'
import {
  claimUnits,
  parseClaims,
  rankClaims,
  sourceOrder,
  trimClaims,
  type Claim,
} from '../../../src/query/lazy/claims.js'
import { deepen, type RelevanceTest } from '../../../src/query/lazy/deepening.js'
import { bestUntested, rankCommunities, rankUnits, type LazyCommunity } from '../../../src/query/lazy/ranking.js'
import { conceptGraph } from '../../../src/query/lazy/subgraph.js'
import { topicalExcerpt } from '../../../src/text/excerpt.js'
import { lazyCommunities } from '../../../src/query/lazy/tables.js'
import { rankedUnitGroups } from '../../../src/query/lazy/unit-ranking.js'

const community = (n: number, units: string[], children: number[] = [], level = 0): LazyCommunity => ({
  community: n,
  level,
  title: `c${n}`,
  children,
  unitIds: units,
})

/** Ranks u0 < u1 < … by their number. */
const ranks = (...ids: string[]) => new Map(ids.map((id, i) => [id, i]))

describe('relevance budget', () => {
  it('grants tests until spent, never more', () => {
    const b = new RelevanceBudget(7)
    expect(b.take(5)).toBe(5)
    expect(b.take(5)).toBe(2)
    expect(b.take(5)).toBe(0)
    expect(b.spent).toBe(7)
    expect(b.remaining).toBe(0)
  })

  it('splits a budget into shares that differ by one at most, the larger first', () => {
    expect(splitBudget(100, 3)).toEqual([34, 33, 33])
    expect(splitBudget(2, 3)).toEqual([1, 1, 0])
    expect(splitBudget(9, 1)).toEqual([9])
  })
})

describe('ranking', () => {
  it('fuses the vector and BM25 lists: a unit high in both beats one first in only one', () => {
    const rank = rankUnits(
      [
        {
          signal: 'vector',
          hits: [
            { id: 'a', score: 0.9 },
            { id: 'b', score: 0.8 },
          ],
        },
        {
          signal: 'bm25',
          hits: [
            { id: 'b', score: 3 },
            { id: 'c', score: 2 },
          ],
        },
      ],
      60,
    )
    expect([...rank.keys()]).toEqual(['b', 'a', 'c'])
  })

  it('ranks communities by their best unit, then the next best, leaving out those with none ranked', () => {
    const unitRank = ranks('u0', 'u1', 'u2', 'u3')
    const list = rankCommunities(
      [
        community(1, ['u3', 'x']),
        community(2, ['u1', 'u3']),
        community(3, ['u1', 'u2']),
        community(4, ['zz']),
        community(5, ['u0']),
      ],
      unitRank,
    )
    expect(list.map((c) => c.community)).toEqual([5, 3, 2, 1])
  })

  it('picks the best untested units of a community', () => {
    const c = community(1, ['u3', 'u0', 'u2', 'x', 'u1'])
    expect(bestUntested(c, ranks('u0', 'u1', 'u2', 'u3'), new Set(['u0']), 2)).toEqual(['u1', 'u2'])
  })

  it('groups ranked units when the index has no communities, best first', () => {
    const groups = rankedUnitGroups(ranks('a', 'b', 'c'), 2)
    expect(groups.map((g) => g.unitIds)).toEqual([['a', 'b'], ['c']])
  })

  it("takes a community's units as stored, else its members' units", () => {
    const rows = [
      { community: 0, level: 0, children: [1], title: 't', entity_ids: ['e1'], text_unit_ids: ['u9'] },
      { community: 1, level: 1, children: [], title: 't', entity_ids: ['e1', 'e2'], text_unit_ids: [] },
    ]
    const entities = [
      { id: 'e1', text_unit_ids: ['u1', 'u2'] },
      { id: 'e2', text_unit_ids: ['u2', 'u3'] },
    ]
    expect(lazyCommunities(rows, entities).map((c) => c.unitIds)).toEqual([['u9'], ['u1', 'u2', 'u3']])
  })
})

/** A test that judges the listed units relevant, and records every batch it was given. */
function judge(relevant: string[]): { test: RelevanceTest; batches: string[][] } {
  const batches: string[][] = []
  return {
    batches,
    test: async (ids) => {
      batches.push([...ids])
      return ids.filter((id) => relevant.includes(id))
    },
  }
}

describe('iterative deepening', () => {
  // Root 0 holds everything; its children 1 and 2; 1's children 3 and 4.
  const tree = [
    community(0, ['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7']),
    community(1, ['u0', 'u2', 'u4', 'u6'], [3, 4], 1),
    community(2, ['u1', 'u3', 'u5', 'u7'], [], 1),
    community(3, ['u0', 'u4'], [], 2),
    community(4, ['u2', 'u6'], [], 2),
  ]
  tree[0] = { ...tree[0]!, children: [1, 2] }
  const unitRank = ranks('u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7')

  it('descends into the sub-communities of a community that yielded relevant text', async () => {
    const j = judge(['u0', 'u2'])
    const walk = await deepen(tree, unitRank, new RelevanceBudget(100), { batchSize: 2, maxMisses: 2 }, j.test)
    // Community 3's units were all tested above it, so it is passed over without a visit.
    expect(walk.visits.map((v) => [v.community, v.depth, v.tested])).toEqual([
      [0, 0, ['u0', 'u1']],
      [1, 1, ['u2', 'u4']],
      [4, 2, ['u6']],
      [2, 1, ['u3', 'u5']],
    ])
    expect(walk.relevant).toEqual(['u0', 'u2'])
  })

  it('stops a branch after z consecutive communities without relevant text', async () => {
    const flat = [1, 2, 3, 4, 5].map((n) => community(n, [`u${n}`]))
    const unitRank1 = ranks('u1', 'u2', 'u3', 'u4', 'u5')
    const j = judge(['u5'])
    const walk = await deepen(flat, unitRank1, new RelevanceBudget(100), { batchSize: 1, maxMisses: 3 }, j.test)
    expect(j.batches).toEqual([['u1'], ['u2'], ['u3']])
    expect(walk.stop).toBe('exhausted')
    // A relevant community in between resets the count.
    const k = judge(['u3'])
    await deepen(flat, unitRank1, new RelevanceBudget(100), { batchSize: 1, maxMisses: 3 }, k.test)
    expect(k.batches).toEqual([['u1'], ['u2'], ['u3'], ['u4'], ['u5']])
  })

  it('never tests more units than the budget, cutting the last batch short', async () => {
    const j = judge(['u0', 'u1', 'u2', 'u3', 'u4', 'u5', 'u6', 'u7'])
    const budget = new RelevanceBudget(5)
    const walk = await deepen(tree, unitRank, budget, { batchSize: 2, maxMisses: 2 }, j.test)
    expect(j.batches.flat()).toHaveLength(5)
    expect(j.batches.at(-1)).toHaveLength(1)
    expect(walk.stop).toBe('budget')
    expect(new Set(j.batches.flat()).size).toBe(5)
  })

  it('digs on in a community without sub-communities while its batches stay relevant', async () => {
    const leaf = [community(7, ['u0', 'u1', 'u2', 'u3', 'u4'])]
    const j = judge(['u0', 'u1', 'u2'])
    await deepen(
      leaf,
      ranks('u0', 'u1', 'u2', 'u3', 'u4'),
      new RelevanceBudget(100),
      { batchSize: 2, maxMisses: 1 },
      j.test,
    )
    expect(j.batches).toEqual([['u0', 'u1'], ['u2', 'u3'], ['u4']])
  })
})

const claim = (text: string, sources: string[], score: number, subquery = 0): Claim => ({
  text,
  sources,
  score,
  subquery,
})

describe('claims', () => {
  it('reads a reply, keeping sources of the batch only and dropping claims left without one', () => {
    const labels = new Map([
      ['4', 'u4'],
      ['9', 'u9'],
    ])
    const reply = {
      claims: [
        { claim: 'The ferry sank.', sources: [4, 12], score: 7 },
        { claim: 'Invented.', sources: [12], score: 9 },
        { claim: 'The lamp was lit.', sources: ['9'], score: '8' },
        { claim: '', sources: [4], score: 3 },
      ],
    }
    expect(parseClaims(reply, labels, 1, 5)).toEqual([
      claim('The lamp was lit.', ['u9'], 8, 1),
      claim('The ferry sank.', ['u4'], 7, 1),
    ])
    expect(parseClaims(reply, labels, 1, 1)).toHaveLength(1)
    expect(parseClaims({ nothing: true }, labels, 0, 5)).toEqual([])
  })

  it('ranks by score, then sub-question, then the best source, then text, merging repeated claims', () => {
    const order = new Map([
      ['a', 0],
      ['b', 1],
    ])
    const ranked = rankClaims(
      [
        claim('Late source.', ['b'], 5),
        claim('Early source.', ['a'], 5),
        claim('Second question.', ['a'], 5, 1),
        claim('Best.', ['b'], 9, 2),
        claim('early  SOURCE.', ['b'], 6, 1),
      ],
      order,
    )
    expect(ranked.map((c) => [c.text, c.score, c.sources])).toEqual([
      ['Best.', 9, ['b']],
      ['Early source.', 6, ['a', 'b']],
      ['Late source.', 5, ['b']],
      ['Second question.', 5, ['a']],
    ])
  })

  it('gives the same ranking whatever order the claims arrive in', () => {
    const order = new Map([
      ['a', 0],
      ['b', 1],
      ['c', 2],
    ])
    const claims = [
      claim('The lamp was lit.', ['c'], 5),
      claim('The lamp was lit.', ['a'], 5, 1),
      claim('The ferry sank.', ['b'], 5),
      claim('The ferry sank.', ['c', 'a'], 4),
    ]
    const ranked = rankClaims(claims, order)
    expect(ranked.map((c) => [c.text, c.sources])).toEqual([
      ['The ferry sank.', ['a', 'b', 'c']],
      ['The lamp was lit.', ['a', 'c']],
    ])
    expect(rankClaims([...claims].reverse(), order)).toEqual(ranked)
  })

  it("lists sources by sub-question, then by that sub-question's retrieval rank, never twice", () => {
    const rankings = [
      new Map([
        ['a', 2],
        ['b', 0],
        ['c', 1],
      ]),
      new Map([
        ['d', 0],
        ['c', 5],
        ['e', 1],
      ]),
    ]
    // Found (walk) order differs from the rank; 'c' is relevant to both and stays in the first group;
    // 'z' is unranked: after the ranked ones.
    const order = sourceOrder(rankings, [
      ['a', 'c', 'z', 'b'],
      ['e', 'c', 'd'],
    ])
    expect([...order.keys()]).toEqual(['b', 'c', 'a', 'z', 'd', 'e'])
    expect([...order.values()]).toEqual([0, 1, 2, 3, 4, 5])
  })

  it("reads at most what the context holds, taking each sub-question's units in turn", () => {
    const relevant = [['a1', 'a2', 'a3', 'a4'], ['b1'], ['c1', 'c2', 'c3']]
    expect(claimUnits(relevant, 5)).toEqual([['a1', 'a2'], ['b1'], ['c1', 'c2']])
    expect(claimUnits(relevant, 4)).toEqual([['a1', 'a2'], ['b1'], ['c1']])
    expect(claimUnits(relevant, 7)).toEqual([['a1', 'a2', 'a3'], ['b1'], ['c1', 'c2', 'c3']])
    expect(claimUnits(relevant, 100)).toEqual(relevant)
  })

  it('trims to the token budget, skipping a claim too long but keeping later ones that fit', () => {
    const words = (text: string) => text.split(/\s+/).length
    const ranked = [claim('one two', ['a'], 9), claim('x '.repeat(30).trim(), ['a'], 8), claim('three', ['b'], 7)]
    const trimmed = trimClaims(ranked, 16, (id) => (id === 'a' ? '1' : '2'), words)
    expect(trimmed.kept.map((c) => c.text)).toEqual(['one two', 'three'])
    expect(trimmed.dropped).toBe(1)
    expect(trimmed.text).toBe('- one two [Data: Sources (1)]\n- three [Data: Sources (2)]')
  })
})

describe('citations', () => {
  it('reads Sources citations, also beside other tables, without +more and repeats', () => {
    const answer =
      'A [Data: Sources (3, 7, +more)]. B [Data: Entities (1); Sources (7, 12)]. C (Sources (99)) is no citation.'
    expect(citedSourceLabels(answer)).toEqual(['3', '7', '12'])
  })

  it('resolves labels to the units given and reports the others', () => {
    const given = new Map([
      ['3', 'unit-3'],
      ['7', 'unit-7'],
    ])
    expect(checkLazyCitations('X [Data: Sources (7, 5)]. Y [Data: Sources (3)]', given)).toEqual({
      cited: [
        { label: '7', id: 'unit-7' },
        { label: '3', id: 'unit-3' },
      ],
      unknown: ['5'],
    })
  })
})

describe('concept subgraph', () => {
  it("holds the units' concepts, most units first, and only relationships between them", () => {
    const graph = conceptGraph(
      [
        { id: 'e1', title: 'FERRY' },
        { id: 'e2', title: 'HARBOUR' },
        { id: 'e3', title: 'LAMP' },
        { id: 'e4', title: 'COURT' },
      ],
      [
        { source: 'FERRY', target: 'HARBOUR', weight: 1 },
        { source: 'HARBOUR', target: 'LAMP', weight: 3 },
        { source: 'LAMP', target: 'COURT', weight: 9 },
      ],
    )([
      { id: 'u1', entity_ids: ['e1', 'e2'] },
      { id: 'u2', entity_ids: ['e2', 'e3'] },
    ])
    expect(graph.concepts).toEqual([
      { title: 'HARBOUR', units: 2 },
      { title: 'FERRY', units: 1 },
      { title: 'LAMP', units: 1 },
    ])
    expect(graph.relationships.map((r) => r.weight)).toEqual([3, 1])
  })
})

describe('relevance excerpt', () => {
  const count = (text: string) => text.split(/\s+/).length
  const text =
    'The fog lay on the bay. Marta Quill rowed the lifeboat out. Nobody slept. The lifeboat crew came back at dawn.'

  it('keeps the sentences sharing most words with the question, in text order, within the budget', () => {
    expect(topicalExcerpt(text, 'Who rowed the lifeboat?', 20, count)).toBe(
      'Marta Quill rowed the lifeboat out. … The lifeboat crew came back at dawn.',
    )
    expect(topicalExcerpt(text, 'Who rowed the lifeboat?', 6, count)).toBe('Marta Quill rowed the lifeboat out.')
  })

  it('shows the start of a unit that shares no word with the question', () => {
    expect(topicalExcerpt(text, 'zebra?', 8, count)).toBe('The fog lay on the bay. … Nobody slept.')
  })
})
