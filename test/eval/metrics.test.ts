// The eval metrics against values computed by hand (docs/eval.md defines each).
import { describe, expect, it } from 'vitest'
import {
  aggregatePairs,
  methodWinRate,
  type PairJudgement,
  scoreForA,
  type Verdict,
} from '../../src/eval/metrics/pairwise.js'
import {
  answerTokenRecall,
  contentTokens,
  evidenceRecallAtK,
  reciprocalRank,
  supports,
} from '../../src/eval/metrics/retrieval.js'
import { bootstrapInterval, mean, percentile, signTestP } from '../../src/eval/metrics/stats.js'

const PASSAGES = [
  { documents: ['01-the-harbour.txt'], text: 'Tobias Harrow is the chairman of the Aldwick Ferry Cooperative.' },
  { documents: ['02-the-storm.txt'], text: 'The storm broke the   engine mount.' },
  { documents: ['03-the-salvage.txt'], text: 'Lena Storr launched the lifeboat at four minutes past four.' },
]

describe('retrieval metrics', () => {
  it('evidence recall@k: the share of gold items supported within the first k passages', () => {
    const evidence = ['02-the-storm', 'launched the lifeboat']
    expect(evidenceRecallAtK(PASSAGES, evidence, 1)).toBe(0)
    expect(evidenceRecallAtK(PASSAGES, evidence, 2)).toBe(0.5)
    expect(evidenceRecallAtK(PASSAGES, evidence, 3)).toBe(1)
    expect(evidenceRecallAtK(PASSAGES, [], 3)).toBeUndefined()
  })

  it('MRR: 1 / rank of the first supporting passage, 0 when none supports', () => {
    expect(reciprocalRank(PASSAGES, ['launched the lifeboat', 'engine mount'])).toBe(0.5)
    expect(reciprocalRank(PASSAGES, ['chairman'])).toBe(1)
    expect(reciprocalRank(PASSAGES, ['a passage nobody wrote'])).toBe(0)
    expect(reciprocalRank(PASSAGES, [])).toBeUndefined()
  })

  it('matches a document by title (extension and case optional) or a passage by normalised containment', () => {
    const unit = { documents: ['stave/01-Marley.txt'], text: 'Scrooge’s  nephew said—Merry Christmas!' }
    expect(supports(unit, '01-marley')).toBe(true)
    expect(supports(unit, '01-MARLEY.TXT')).toBe(true)
    expect(supports(unit, "scrooge's nephew said-merry")).toBe(true)
    expect(supports(unit, '02-marley')).toBe(false)
    expect(supports(unit, '   ')).toBe(false)
    expect(supports(unit, '“Nephew said.”')).toBe(true)
    expect(supports(unit, ' … ')).toBe(false)
    expect(supports({ documents: ['a.txt', '01-marley.md'], text: '' }, '01-Marley')).toBe(true)
    // A title with a dot of its own (HotpotQA's "Washington, D.C.") still names its file.
    expect(supports({ documents: ['Washington, D.C.txt'], text: '' }, 'Washington, D.C')).toBe(true)
    expect(supports({ documents: [], text: 'a report' }, 'a report')).toBe(true)
  })

  it('answer-token recall: the share of the gold answer’s content words found in the context', () => {
    expect([...contentTokens('Tobias Harrow, on 14 November')]).toEqual(['tobias', 'harrow', '14', 'november'])
    expect(answerTokenRecall('Tobias Harrow, on 14 November', 'Harrow filed it in November.')).toBe(0.5)
    expect(answerTokenRecall('Tobias Harrow', 'TOBIAS HARROW')).toBe(1)
    expect([...contentTokens('An ox, a b, 7 Ng')]).toEqual(['ox', '7', 'ng'])
    expect(answerTokenRecall('the of a', 'anything')).toBeUndefined()
    expect(answerTokenRecall(undefined, 'anything')).toBeUndefined()
  })
})

describe('statistics', () => {
  it('mean skips metrics that do not apply', () => {
    expect(mean([1, undefined, 0.5])).toBe(0.75)
    expect(mean([undefined])).toBeUndefined()
  })

  it('percentiles interpolate linearly between ranks', () => {
    expect(percentile([40, 10, 30, 20], 50)).toBe(25)
    expect(percentile([10, 20, 30, 40], 95)).toBeCloseTo(38.5, 10)
    expect(percentile([7], 95)).toBe(7)
    expect(percentile([], 50)).toBeUndefined()
  })

  it('sign test: exact two-sided binomial p, ties left out', () => {
    expect(signTestP(5, 0)).toBe(0.0625)
    expect(signTestP(9, 1)).toBeCloseTo(22 / 1024, 12)
    expect(signTestP(3, 3)).toBe(1)
    expect(signTestP(0, 0)).toBe(1)
    expect(signTestP(3000, 3000)).toBe(1)
    expect(signTestP(2000, 1000)).toBeLessThan(1e-6)
  })

  it('bootstrap interval is seeded (same scores, same interval) and brackets the mean', () => {
    const scores = [0, 1, 1, 0, 1, 1, 0.5, 1]
    const first = bootstrapInterval(scores)!
    expect(bootstrapInterval(scores)).toEqual(first)
    expect(first.low).toBeLessThan(mean(scores)!)
    expect(first.high).toBeGreaterThan(mean(scores)!)
    expect(first.high).toBeLessThanOrEqual(1)
    expect(bootstrapInterval([0.5, 0.5])).toEqual({ low: 0.5, high: 0.5 })
    // 20 coin flips: standard error √(¼/20) ≈ 0.11, so the 95% interval is about 0.5 ± 0.22.
    const coins = bootstrapInterval(Array.from({ length: 20 }, (_, i) => i % 2))!
    expect(coins.low).toBeGreaterThan(0.2)
    expect(coins.low).toBeLessThan(0.35)
    expect(coins.high).toBeGreaterThan(0.65)
    expect(coins.high).toBeLessThan(0.8)
  })
})

const judged = (question: number, aFirst: Verdict, bFirst: Verdict): PairJudgement => ({
  question,
  a: 'local',
  b: 'basic',
  criterion: 'relevance',
  aFirst,
  bFirst,
})

describe('pairwise win rates', () => {
  it('scores A from both orders: win 1, tie ½, loss 0, position preference cancels out', () => {
    expect(scoreForA({ aFirst: 'first', bFirst: 'second' })).toBe(1)
    expect(scoreForA({ aFirst: 'second', bFirst: 'first' })).toBe(0)
    expect(scoreForA({ aFirst: 'first', bFirst: 'first' })).toBe(0.5)
    expect(scoreForA({ aFirst: 'first', bFirst: 'tie' })).toBe(0.75)
    expect(scoreForA({ aFirst: 'tie', bFirst: 'tie' })).toBe(0.5)
  })

  it('aggregates per pair and criterion: rate, wins/losses/ties, sign test', () => {
    const [result] = aggregatePairs([
      judged(0, 'first', 'second'),
      judged(1, 'first', 'second'),
      judged(2, 'first', 'first'),
      judged(3, 'second', 'first'),
    ])
    expect(result).toMatchObject({ a: 'local', b: 'basic', winRate: 0.625, wins: 2, losses: 1, ties: 1, p: 1 })
    expect(result!.interval.low).toBeLessThanOrEqual(0.625)
    expect(result!.interval.high).toBeGreaterThanOrEqual(0.625)
  })

  it('a method’s win rate averages its pairs from its own side, A/A pairs left out', () => {
    const base = { interval: { low: 0, high: 1 }, wins: 0, losses: 0, ties: 0, p: 1, criterion: 'relevance' }
    const results = [
      { ...base, a: 'A', b: 'B', winRate: 0.75 },
      { ...base, a: 'B', b: 'C', winRate: 0.4 },
      { ...base, a: 'A', b: 'A', winRate: 0.9 },
    ]
    expect(methodWinRate(results, 'A')).toBe(0.75)
    expect(methodWinRate(results, 'B')).toBeCloseTo(0.325, 12)
    expect(methodWinRate(results, 'C')).toBeCloseTo(0.6, 12)
    expect(methodWinRate(results, 'D')).toBeUndefined()
  })
})
