/** What counts as a transient store failure, for both backends' retry counting. */

export const TRANSIENT_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

const TRANSIENT_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
])

/** A network-level failure (reset, refused, timed out) that a resend may cure. */
export function isTransientNetworkError(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown; name?: unknown } | undefined, depth = 0;
    e && depth < 4;
    depth++
  ) {
    if (typeof e.code === 'string' && TRANSIENT_CODES.has(e.code)) return true
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return false
    e = e.cause as typeof e
  }
  return false
}

export function backoffMs(attempt: number): number {
  return Math.min(100 * 2 ** attempt, 5_000)
}
