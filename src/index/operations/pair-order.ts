/**
 * A quick answer to "are the pairs ordered and unique?" (prune-codes.ts orderedUniqueCodes) for the
 * graphs that are not: that check ranks every distinct string of the read first (titles, descriptions,
 * text-unit ids: ~220,000 at 100k entities), while an extracted graph's pairs come in extraction order
 * and break the order within the first few. Only a graph whose first pairs pass pays for the ranking.
 */
import type { PairCodes } from './prune-codes.js'

/** How many leading pairs are compared as strings before the full check. */
const LEADING_PAIRS = 64

/**
 * True when a pair among the first ones has source ≥ target, or does not sort strictly after the pair
 * before it (JavaScript's string order, as orderedUniqueCodes): the pairs are then not ordered and
 * unique. False says nothing (the full check decides).
 */
export function leadingPairsOutOfOrder({ source, target, titles }: Omit<PairCodes, 'weight'>): boolean {
  const n = Math.min(source.length, LEADING_PAIRS)
  for (let i = 0; i < n; i++) {
    const [s, t] = [titles[source[i]!] as string, titles[target[i]!] as string]
    if (!(s < t)) return true
    if (i === 0) continue
    const [before, beforeTarget] = [titles[source[i - 1]!] as string, titles[target[i - 1]!] as string]
    if (before > s || (before === s && beforeTarget >= t)) return true
  }
  return false
}
