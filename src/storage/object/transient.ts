/** Transient store failures: the statuses resent, the per-try timeout, and the bookkeeping of resends. */
import { causeChain, ConfigError } from '../../errors.js'

export const TRANSIENT_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504])

export function backoffMs(attempt: number): number {
  return Math.min(100 * 2 ** attempt, 5_000)
}

/**
 * How long one try of a store request may go unanswered (GRAPHRAG_STORE_TIMEOUT_SECONDS, default
 * 60): on Azure until the reply's headers arrive (uploads are cut into blocks of at most
 * UPLOAD_BLOCK_BYTES, so that bounds the bytes one try sends), on S3 as inactivity of the socket.
 * A try that times out is retried like a reset; without a timeout an unanswered request hung the run.
 */
export function storeTryTimeoutMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const text = env.GRAPHRAG_STORE_TIMEOUT_SECONDS?.trim() ?? ''
  if (text === '') return 60_000
  const seconds = Number(text)
  if (!Number.isFinite(seconds) || seconds < 1)
    throw new ConfigError(
      `GRAPHRAG_STORE_TIMEOUT_SECONDS=${text}: expected the seconds one try of a store request may go unanswered, a number ≥ 1; unset it for the default 60`,
    )
  return seconds * 1000
}

/** The largest request body one Azure try sends (bigger uploads go as blocks), so a per-try timeout fits a slow link. */
export const UPLOAD_BLOCK_BYTES = 8 * 2 ** 20

/**
 * Why each logical request's last try failed, by the request's id (stable across its tries), so a
 * resend is counted when it is sent — exactly once per resend, whatever made the SDK resend it —
 * and its log line can say why.
 */
export class FailedTries {
  private readonly reasons = new Map<string, string>()

  failed(id: string, reason: string): void {
    this.reasons.delete(id)
    this.reasons.set(id, reason)
    // Bounded: requests that ended on a failure without a resend are forgotten oldest first.
    if (this.reasons.size > 1_000) this.reasons.delete(this.reasons.keys().next().value!)
  }

  /** The reason the previous try of `id` failed (undefined: none recorded); forgets it. */
  take(id: string): string | undefined {
    const reason = this.reasons.get(id)
    this.reasons.delete(id)
    return reason
  }
}

/** A short reason for a failed try: `HTTP 503`, `ECONNRESET`, `no answer within 60 s`. */
export function failureReason(error: unknown): string {
  for (const { code } of causeChain(error)) if (typeof code === 'string' && code !== '') return code
  return error instanceof Error ? (error.message.split('\n')[0] ?? '').slice(0, 120) : String(error)
}
