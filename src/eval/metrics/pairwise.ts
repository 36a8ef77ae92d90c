/**
 * Pairwise win rates from a judge's verdicts. Every pair of answers is judged in both orders, so a
 * judge that favours the first (or second) position scores a method against itself at exactly 0.5:
 * the A/A check. A question's score for A is the mean of its two verdicts (win 1, tie ½, loss 0).
 */
import { bootstrapInterval, type Interval, mean, signTestP } from './stats.js'

/** Which answer the judge preferred, by its position in the prompt. */
export type Verdict = 'first' | 'second' | 'tie'

export interface PairJudgement {
  question: number
  a: string
  b: string
  criterion: string
  /** The verdict with A's answer shown first. */
  aFirst: Verdict
  /** The verdict with B's answer shown first. */
  bFirst: Verdict
}

export interface PairResult {
  a: string
  b: string
  criterion: string
  /** Mean score of A over the questions (0.5 = no difference). */
  winRate: number
  /** 95% bootstrap interval of winRate (questions resampled, seeded). */
  interval: Interval
  /** Questions A won (score above ½), lost and tied. */
  wins: number
  losses: number
  ties: number
  /** Two-sided sign test over the won and lost questions. */
  p: number
}

/** A's score on one question, from the verdicts of both orders. */
export function scoreForA(judgement: Pick<PairJudgement, 'aFirst' | 'bFirst'>): number {
  const aFirst = { first: 1, tie: 0.5, second: 0 }[judgement.aFirst]
  const bFirst = { first: 0, tie: 0.5, second: 1 }[judgement.bFirst]
  return (aFirst + bFirst) / 2
}

/** One result per (A, B, criterion), in the order the pairs first appear. */
export function aggregatePairs(judgements: readonly PairJudgement[]): PairResult[] {
  const groups = new Map<string, PairJudgement[]>()
  for (const j of judgements) {
    const key = JSON.stringify([j.a, j.b, j.criterion])
    groups.set(key, [...(groups.get(key) ?? []), j])
  }
  return [...groups.values()].map((group) => {
    const scores = group.map(scoreForA)
    const wins = scores.filter((s) => s > 0.5).length
    const losses = scores.filter((s) => s < 0.5).length
    const { a, b, criterion } = group[0]!
    return {
      a,
      b,
      criterion,
      winRate: mean(scores)!,
      interval: bootstrapInterval(scores)!,
      wins,
      losses,
      ties: scores.length - wins - losses,
      p: signTestP(wins, losses),
    }
  })
}

/**
 * A method's overall win rate: the mean of its win rates against every other method over all
 * criteria (a pair where it is B counts as 1 − A's rate); A/A pairs are left out. Undefined when
 * it met no other method.
 */
export function methodWinRate(results: readonly PairResult[], method: string): number | undefined {
  const rates = results
    .filter((r) => r.a !== r.b && (r.a === method || r.b === method))
    .map((r) => (r.a === method ? r.winRate : 1 - r.winRate))
  return mean(rates)
}
