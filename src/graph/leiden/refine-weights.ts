/**
 * Candidate weighting shared by both refinements: the reference's approximate exponential, and the
 * pick of a candidate from cumulative weights.
 */

/** (1 + x/256)^256 by eight squarings, as the reference does; 0 below −256. */
export function approxExp(x: number): number {
  if (x < -256) return 0
  let y = 1 + x / 256
  y *= y
  y *= y
  y *= y
  y *= y
  y *= y
  y *= y
  y *= y
  y *= y
  return y
}

/** First position in cumulative[0..count) whose value exceeds target (binary search). */
export function pickCumulative(cumulative: Float64Array, count: number, target: number): number {
  let lo = 0
  let hi = count - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (cumulative[mid] > target) hi = mid
    else lo = mid + 1
  }
  return lo
}
