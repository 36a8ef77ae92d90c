/** Concurrency seen in the fake server's request log. */

/** Largest number of requests in flight at the same moment (touching intervals do not overlap). */
export function maxOverlap(intervals: readonly { startedAt: number; endedAt: number }[]): number {
  const events = intervals
    .flatMap((r) => [[r.startedAt, 1] as const, [r.endedAt, -1] as const])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let now = 0
  let max = 0
  for (const [, d] of events) max = Math.max(max, (now += d))
  return max
}
