/**
 * The relevance-test budget, lazy search's one knob: every text unit put before the relevance model
 * counts one, however many share a call. A budget is split between sub-questions up front, so what
 * each one may spend does not depend on which finishes first.
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
