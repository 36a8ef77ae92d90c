import { LlmError } from '../errors.js'

/**
 * The outcome of one failed attempt, as the transport classifies it. The retry layer decides on it
 * and, when it gives up, turns it into the public LlmError with the attempt count.
 */

export type FailureKind = 'http' | 'timeout' | 'connection' | 'invalid_reply' | 'aborted'

export class AttemptFailure extends Error {
  readonly kind: FailureKind
  readonly status: number | undefined
  readonly retryable: boolean
  /** Server-requested wait (Retry-After / retry-after-ms), in milliseconds. */
  readonly retryAfterMs: number | undefined
  constructor(
    message: string,
    details: { kind: FailureKind; status?: number; retryable: boolean; retryAfterMs?: number; cause?: unknown },
  ) {
    super(message, { cause: details.cause })
    this.name = 'AttemptFailure'
    this.kind = details.kind
    this.status = details.status
    this.retryable = details.retryable
    this.retryAfterMs = details.retryAfterMs
  }
}

/**
 * A request larger than the server takes (HTTP 413, or a 400/422/500 whose message says the input
 * exceeds the context or batch size, as vLLM, TEI and llama.cpp answer): the same request would
 * fail again, so it is not retried; a batch is split instead.
 */
const CAPACITY_MESSAGE =
  /context length|context window|too large|too long|too many tokens|maximum (?:input|context|allowed)|exceeds? (?:the )?(?:max|limit)|physical batch size/i

export function isCapacityFailure(status: number, message: string): boolean {
  return status === 413 || ([400, 422, 500].includes(status) && CAPACITY_MESSAGE.test(message))
}

/** 408/409/429 and 5xx are transient; other 4xx (bad request, auth, not found, too large) are not. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * The model answered with nothing (an empty or whitespace-only message, a stream without a word):
 * retried like any invalid reply and never cached. Extraction reads one still blank after its
 * retries as "no records" (see isBlankReply) instead of losing the text unit.
 */
export class BlankReplyFailure extends AttemptFailure {
  constructor(message: string) {
    super(`invalid reply: ${message}`, { kind: 'invalid_reply', retryable: true })
    this.name = 'BlankReplyFailure'
  }
}

/** True for the LlmError of a call whose every attempt got a blank reply (the last one decides). */
export function isBlankReply(error: unknown): boolean {
  return error instanceof LlmError && error.cause instanceof BlankReplyFailure
}
