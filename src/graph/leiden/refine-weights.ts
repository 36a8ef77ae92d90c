/**
 * Candidate weighting shared by both refinements: the reference's approximate exponential, the pick
 * of a candidate from cumulative weights, and the choice of a node's refined community.
 */
import type { XorShift128 } from './rng.js'
import type { Scratch } from './scratch.js'

/** (1 + x/256)^256 by eight squarings, as the reference does; 0 below −256. */
function approxExp(x: number): number {
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
function pickCumulative(cumulative: Float64Array, count: number, target: number): number {
  let lo = 0
  let hi = count - 1
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (cumulative[mid] > target) hi = mid
    else lo = mid + 1
  }
  return lo
}

/**
 * Chooses the refined community of a node among the `count` candidates in `s.touched` (its own, now
 * empty, singleton first), whose edge weights to the node are in `s.acc`: only well-connected ones
 * with ΔH ≥ 0 get weight approxExp(ΔH/θ), and one f64 is drawn when the total is finite (else the
 * best candidate is taken). `wv` is the node's weight, `total` its community's, `r` the resolution.
 */
export function chooseRefinedCommunity(
  count: number,
  wv: number,
  total: number,
  r: number,
  theta: number,
  rng: XorShift128,
  s: Scratch,
): number {
  const { acc, touched, cumulative, refWeight: cw, refExternal: ext } = s
  let best = touched[0]
  let bestQ = 0
  let sum = 0
  for (let i = 0; i < count; i++) {
    const c = touched[i]
    if (ext[c] >= cw[c] * (total - cw[c]) * r) {
      const q = acc[c] - wv * cw[c] * r
      if (q > bestQ) {
        bestQ = q
        best = c
      }
      if (q >= 0) sum += approxExp(q / theta)
    }
    cumulative[i] = sum
  }
  if (sum === Infinity || Number.isNaN(sum)) return best
  return touched[pickCumulative(cumulative, count, sum * rng.nextF64())]
}
