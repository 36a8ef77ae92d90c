/**
 * Retries transient failures (429, 5xx, timeouts, connection resets, invalid structured replies)
 * with exponential backoff and jitter, honouring Retry-After. Anything else fails at once. After
 * the last attempt the failure becomes an LlmError carrying the attempt count.
 */
import { LlmError } from '../errors.js'
import type { Logger } from '../logger.js'
import { AttemptFailure } from './failure.js'
import type { ChatCall, ChatReply, ChatTransport, EmbedCall, EmbedReply, EmbedTransport } from './transport.js'
import type { UsageMeter } from './usage.js'

export interface RetryPolicy {
  type: 'exponential_backoff' | 'immediate'
  /** Retries after the first attempt. */
  maxRetries: number
  /** The backoff multiplier, as in the reference: the n-th retry waits baseDelay^n seconds (2, 4, 8 … for the default 2). */
  baseDelay: number
  /** Adds up to one second, drawn uniformly, to each backoff wait. */
  jitter: boolean
  /** Upper bound of one backoff wait in seconds (Retry-After is honoured beyond it). */
  maxDelay: number | undefined
}

export interface RetryContext {
  /** The settings id, e.g. `completion_models.default_completion_model`, named in errors. */
  modelRef: string
  /** Where the API key comes from (`environment variable GRAPHRAG_API_KEY`), for auth errors. */
  keyOrigin: string | undefined
  policy: RetryPolicy
  /** Injected for deterministic tests; defaults to Math.random. */
  random?: () => number
  log?: Logger
}

/** Runs `attempt` until it succeeds, a failure is not retryable, or the retries are used up. */
export async function withRetry<T>(
  ctx: RetryContext,
  meter: UsageMeter,
  signal: AbortSignal | undefined,
  attempt: () => Promise<T>,
): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt()
    } catch (error) {
      const failure = error instanceof AttemptFailure ? error : undefined
      if (failure === undefined) throw error
      if (!failure.retryable || n > ctx.policy.maxRetries || signal?.aborted === true) throw toLlmError(ctx, failure, n)
      meter.retry()
      const wait = waitMs(ctx, failure, n)
      // A warning, not debug: retries cost time and money, and the log should show them without --verbose.
      ctx.log?.warn(`${ctx.modelRef}: attempt ${n} failed (${failure.message}); retrying in ${Math.round(wait)} ms`)
      await sleep(wait, signal)
    }
  }
}

export function waitMs(ctx: RetryContext, failure: AttemptFailure, attempt: number): number {
  if (failure.retryAfterMs !== undefined) return failure.retryAfterMs
  const { policy } = ctx
  if (policy.type === 'immediate') return 0
  // graphrag-llm's ExponentialRetry: the delay starts at 1 s and is multiplied by base_delay before
  // each retry, so retry.base_delay means the same wait schedule here as in the reference.
  const jitter = policy.jitter ? (ctx.random ?? Math.random)() : 0
  const seconds = policy.baseDelay ** attempt + jitter
  return (policy.maxDelay === undefined ? seconds : Math.min(policy.maxDelay, seconds)) * 1000
}

function toLlmError(ctx: RetryContext, failure: AttemptFailure, attempts: number): LlmError {
  const details = {
    model: ctx.modelRef,
    attempts,
    status: failure.status,
    retryable: failure.retryable,
    cause: failure,
  }
  if (failure.status === 401 || failure.status === 403) {
    const origin =
      ctx.keyOrigin === undefined ? 'no API key is configured for it' : `the key comes from ${ctx.keyOrigin}`
    const verb = failure.status === 401 ? 'rejected the API key' : 'denied access with the API key'
    return new LlmError(`${ctx.modelRef}: the provider ${verb} (HTTP ${failure.status}); ${origin}`, details)
  }
  const tries = attempts === 1 ? '1 attempt' : `${attempts} attempts`
  return new LlmError(`${ctx.modelRef}: ${failure.message} (${tries})`, details)
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  if (ms <= 0) return Promise.resolve()
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/** The chat transport with retries. A stream is retried only until its first delta arrives. */
export function retryingChat(inner: ChatTransport, ctx: RetryContext): ChatTransport {
  return {
    complete: (call: ChatCall): Promise<ChatReply> =>
      withRetry(ctx, call.meter, call.signal, () => inner.complete(call)),
    async *stream(call: ChatCall): AsyncIterable<string> {
      let attempts = 0
      const { iterator, first } = await withRetry(ctx, call.meter, call.signal, async () => {
        attempts += 1
        const it = inner.stream(call)[Symbol.asyncIterator]()
        return { iterator: it, first: await it.next() }
      })
      if (first.done === true) return
      yield first.value
      try {
        for (let next = await iterator.next(); next.done !== true; next = await iterator.next()) yield next.value
      } catch (error) {
        // Part of the answer was already handed out; repeating it would duplicate text.
        if (error instanceof AttemptFailure) throw toLlmError(ctx, error, attempts)
        throw error
      } finally {
        await iterator.return?.()
      }
    },
  }
}

export function retryingEmbed(inner: EmbedTransport, ctx: RetryContext): EmbedTransport {
  return {
    embed: (call: EmbedCall): Promise<EmbedReply> => withRetry(ctx, call.meter, call.signal, () => inner.embed(call)),
  }
}
