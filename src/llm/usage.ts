/** Usage counters of one model within one workflow; the registry keeps one meter per pair. */
import { costUsd, type Pricing } from './pricing.js'
import type { ChatCall, ChatReply, ChatTransport } from './transport.js'
import type { ModelUsage } from './types.js'

export class UsageMeter {
  private readonly counts = { calls: 0, cacheHits: 0, retries: 0, failures: 0, promptTokens: 0, completionTokens: 0 }
  private busySince: number | undefined
  private inFlight = 0
  private busyMs = 0
  // Start time of each call in flight, so a progress line can show calls that hang.
  private readonly running = new Map<number, number>()
  private nextCall = 0

  constructor(private readonly price: Pricing | undefined) {}

  /**
   * Marks the start of a logical call (a cache hit counts too); returns its end marker. A call that
   * failed but is recovered by the caller splitting its input ends as `split` and counts as a retry.
   */
  start(): (outcome: 'ok' | 'cached' | 'failed' | 'split') => void {
    this.counts.calls += 1
    if (this.inFlight++ === 0) this.busySince = performance.now()
    const call = this.nextCall++
    this.running.set(call, performance.now())
    let ended = false
    return (outcome) => {
      if (ended) return
      ended = true
      this.running.delete(call)
      if (outcome === 'cached') this.counts.cacheHits += 1
      if (outcome === 'failed') this.counts.failures += 1
      if (outcome === 'split') this.counts.retries += 1
      // Wall time is the time with at least one call in flight, not the sum over parallel calls.
      if (--this.inFlight === 0 && this.busySince !== undefined) this.busyMs += performance.now() - this.busySince
    }
  }

  /** Texts an embedding call found in the cache: each counts as a call the cache answered. */
  servedFromCache(count: number): void {
    this.counts.calls += count
    this.counts.cacheHits += count
  }

  /** Calls in flight for at least `minMs` (waiting on a slow server, a Retry-After or a backoff) and the longest wait. */
  waiting(minMs: number): { calls: number; longestMs: number } {
    const now = performance.now()
    let calls = 0
    let longestMs = 0
    for (const since of this.running.values()) {
      const ms = now - since
      if (ms < minMs) continue
      calls += 1
      longestMs = Math.max(longestMs, ms)
    }
    return { calls, longestMs }
  }

  retry(): void {
    this.counts.retries += 1
  }

  tokens(promptTokens: number, completionTokens: number): void {
    this.counts.promptTokens += promptTokens
    this.counts.completionTokens += completionTokens
  }

  snapshot(): ModelUsage {
    const running = this.inFlight > 0 && this.busySince !== undefined ? performance.now() - this.busySince : 0
    const { promptTokens, completionTokens } = this.counts
    return {
      ...this.counts,
      wallSeconds: (this.busyMs + running) / 1000,
      costUsd: this.price === undefined ? 0 : costUsd(this.price, promptTokens, completionTokens),
      // Without a price the cost is unknown, not zero; the tokens say how much of it is missing.
      unpricedTokens: this.price === undefined ? promptTokens + completionTokens : 0,
    }
  }
}

/**
 * The outermost chat layer: counts every logical call, whether the cache answered it, and failures.
 * Embedding calls are counted where they are batched (embeddings.ts), which knows cache hits per text
 * and which failed batches a split recovers.
 */
export function meteredChat(inner: ChatTransport): ChatTransport {
  return {
    async complete(call: ChatCall): Promise<ChatReply> {
      const end = call.meter.start()
      try {
        const reply = await inner.complete(call)
        end(reply.cached === true ? 'cached' : 'ok')
        return reply
      } catch (error) {
        end('failed')
        throw error
      }
    },
    async *stream(call: ChatCall): AsyncIterable<string> {
      const end = call.meter.start()
      // A consumer that stops reading early has not seen a failure.
      let failed = false
      try {
        yield* inner.stream(call)
      } catch (error) {
        failed = true
        throw error
      } finally {
        end(failed ? 'failed' : 'ok')
      }
    },
  }
}
