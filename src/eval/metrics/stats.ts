/** Small statistics for eval: mean, percentiles, a seeded bootstrap interval and an exact sign test. */
import { seededRng } from '../../query/rng.js'

/** Mean of the defined values; undefined when there are none (the metric does not apply). */
export function mean(values: readonly (number | undefined)[]): number | undefined {
  const defined = values.filter((v): v is number => v !== undefined)
  if (defined.length === 0) return undefined
  return defined.reduce((s, v) => s + v, 0) / defined.length
}

/**
 * The p-th percentile (0–100) with linear interpolation between the closest ranks (numpy's
 * default): p50 of [10, 20, 30, 40] is 25. Undefined for no values.
 */
export function percentile(values: readonly number[], p: number): number | undefined {
  if (values.length === 0) return undefined
  const sorted = [...values].sort((a, b) => a - b)
  const position = (p / 100) * (sorted.length - 1)
  const low = Math.floor(position)
  const high = Math.ceil(position)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low)
}

export interface Interval {
  low: number
  high: number
}

/** Resamples of the bootstrap; enough for a stable 95% interval of a mean of per-question scores. */
const BOOTSTRAP_RESAMPLES = 2000

/**
 * 95% percentile-bootstrap interval of the mean of `values`, resampled with a seeded RNG so the
 * same scores always give the same interval. A single value (or none) gives a degenerate interval.
 */
export function bootstrapInterval(values: readonly number[], seed = 41): Interval | undefined {
  if (values.length === 0) return undefined
  const rng = seededRng(seed)
  const means: number[] = []
  for (let r = 0; r < BOOTSTRAP_RESAMPLES; r++) {
    let sum = 0
    for (let i = 0; i < values.length; i++) sum += values[Math.floor(rng() * values.length)]!
    means.push(sum / values.length)
  }
  return { low: percentile(means, 2.5)!, high: percentile(means, 97.5)! }
}

/**
 * Two-sided exact sign test: the probability, with no real preference (each decided question a
 * fair coin), of a split at least as uneven as `wins` to `losses`. Ties are left out; 1 when nothing was decided.
 */
export function signTestP(wins: number, losses: number): number {
  const n = wins + losses
  if (n === 0) return 1
  const extreme = Math.min(wins, losses)
  let tail = 0
  for (let k = 0; k <= extreme; k++) tail += Math.exp(logBinomial(n, k) - n * Math.LN2)
  return Math.min(1, 2 * tail)
}

/** log C(n, k), in logs so thousands of questions neither overflow nor underflow. */
function logBinomial(n: number, k: number): number {
  let result = 0
  for (let i = 1; i <= k; i++) result += Math.log((n - k + i) / i)
  return result
}
