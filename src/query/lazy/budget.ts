/**
 * The relevance-test budget, lazy search's one knob: every text unit put before the relevance model
 * counts one, however many share a call. A budget is split between sub-questions up front, and what
 * a walk leaves unspent goes to the others after every walk has ended, so what each one may spend
 * does not depend on which finishes first.
 */

export class RelevanceBudget {
  private spentUnits = 0

  constructor(readonly total: number) {}

  get spent(): number {
    return this.spentUnits
  }

  get remaining(): number {
    return this.total - this.spentUnits
  }

  /** Reserves up to `wanted` tests; returns how many were granted (0 once the budget is spent). */
  take(wanted: number): number {
    const granted = Math.max(0, Math.min(wanted, this.remaining))
    this.spentUnits += granted
    return granted
  }
}

/** `total` split into `parts` shares that differ by at most one, the larger shares first. */
export function splitBudget(total: number, parts: number): number[] {
  const base = Math.floor(total / parts)
  const extra = total - base * parts
  return Array.from({ length: parts }, (_, i) => base + (i < extra ? 1 : 0))
}

/** How one sub-question's walk ended: tests spent, and whether the budget or the stop rule ended it. */
interface WalkEnd {
  spent: number
  stop: 'budget' | 'exhausted'
}

/**
 * The budget a walk ended by the stop rule left unspent, passed on to the walks the budget ended,
 * split evenly in sub-question order (splitBudget), so the split does not depend on which walk
 * finished first. `done` marks walks that ended by the stop rule (they never take more: their
 * branches are exhausted); it and `shares` are updated in place. Returns the walks to run again with
 * their larger share (none when nothing was left over or no walk can use it).
 */
export function passOnUnspent(shares: number[], ends: readonly WalkEnd[], done: boolean[]): number[] {
  let unspent = 0
  ends.forEach((end, i) => {
    if (done[i] || end.stop !== 'exhausted') return
    done[i] = true
    unspent += shares[i]! - end.spent
    shares[i] = end.spent
  })
  const takers = shares.flatMap((_, i) => (done[i] ? [] : [i]))
  if (unspent === 0 || takers.length === 0) return []
  const extra = splitBudget(unspent, takers.length)
  takers.forEach((i, k) => {
    shares[i]! += extra[k]!
  })
  return takers.filter((_, k) => extra[k]! > 0)
}
