/**
 * Per-model admission control: at most `concurrentRequests` calls in flight, and at most
 * `requestsPerPeriod` requests / `tokensPerPeriod` tokens started in any sliding window. Waiters
 * queue in FIFO order and are woken by releases or a timer, never by polling.
 */
import type { ChatCall, ChatReply, ChatTransport, EmbedCall, EmbedReply, EmbedTransport } from './transport.js'

export interface RateLimitOptions {
  concurrentRequests: number
  periodSeconds: number
  requestsPerPeriod: number | undefined
  tokensPerPeriod: number | undefined
}

interface Waiter {
  tokens: number
  grant: () => void
}

export class RateLimiter {
  private active = 0
  /** Start times (ms) and token estimates of requests admitted within the current window. */
  private readonly window: Array<{ at: number; tokens: number }> = []
  private windowTokens = 0
  private readonly queue: Waiter[] = []
  private timer: ReturnType<typeof setTimeout> | undefined

  constructor(
    private readonly options: RateLimitOptions,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Whether token estimates matter (a tokens_per_period limit is set); callers skip counting otherwise. */
  get countsTokens(): boolean {
    return this.options.tokensPerPeriod !== undefined
  }

  /** Waits for a slot for a request of `tokens` estimated tokens; call the returned function when done. */
  acquire(tokens: number, signal?: AbortSignal): Promise<() => void> {
    signal?.throwIfAborted()
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        tokens,
        grant: () => {
          signal?.removeEventListener('abort', onAbort)
          let released = false
          resolve(() => {
            if (released) return
            released = true
            this.active -= 1
            this.pump()
          })
        },
      }
      const onAbort = () => {
        const i = this.queue.indexOf(waiter)
        if (i >= 0) this.queue.splice(i, 1)
        reject(signal?.reason)
        this.pump()
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      this.queue.push(waiter)
      this.pump()
    })
  }

  /** Whether a request of `tokens` would be admitted at once (a free slot, room in the window, no queue). */
  canAdmit(tokens: number): boolean {
    if (this.queue.length > 0 || this.active >= this.options.concurrentRequests) return false
    const now = this.now()
    this.expire(now)
    return this.windowWait(tokens, now) === 0
  }

  /** Admits queued requests in order while they fit; otherwise sleeps until the window frees up. */
  private pump(): void {
    while (this.queue.length > 0) {
      const head = this.queue[0]!
      if (this.active >= this.options.concurrentRequests) return
      const now = this.now()
      this.expire(now)
      const waitMs = this.windowWait(head.tokens, now)
      if (waitMs > 0) {
        this.schedule(waitMs)
        return
      }
      this.queue.shift()
      this.active += 1
      if (this.options.requestsPerPeriod !== undefined || this.options.tokensPerPeriod !== undefined) {
        this.window.push({ at: now, tokens: head.tokens })
        this.windowTokens += head.tokens
      }
      head.grant()
    }
  }

  /** 0 when a request of `tokens` fits the window now, else the time until the oldest entry leaves it. */
  private windowWait(tokens: number, now: number): number {
    const { requestsPerPeriod: rpp, tokensPerPeriod: tpp } = this.options
    const requestsFull = rpp !== undefined && this.window.length >= rpp
    // A request larger than the whole budget is let through alone, or it would wait forever.
    const tokensFull =
      tpp !== undefined && this.windowTokens + tokens > tpp && !(tokens > tpp && this.window.length === 0)
    if (!requestsFull && !tokensFull) return 0
    const oldest = this.window[0]
    return oldest === undefined ? 0 : Math.max(1, oldest.at + this.options.periodSeconds * 1000 - now)
  }

  private expire(now: number): void {
    const cutoff = now - this.options.periodSeconds * 1000
    while (this.window.length > 0 && this.window[0]!.at <= cutoff) this.windowTokens -= this.window.shift()!.tokens
  }

  private schedule(ms: number): void {
    if (this.timer !== undefined) return
    this.timer = setTimeout(() => {
      this.timer = undefined
      this.pump()
    }, ms)
  }
}

/** Prompt tokens of a chat request as OpenAI counts them, plus the completion budget it asks for. */
export function estimateChatTokens(call: ChatCall, countTokens: (text: string) => number): number {
  const prompt = call.messages.reduce((n, m) => n + 3 + countTokens(m.role) + countTokens(m.content), 3)
  const budget = Number(call.params.max_completion_tokens ?? call.params.max_tokens ?? 0)
  return prompt + (Number.isFinite(budget) ? budget : 0)
}

export function limitedChat(
  inner: ChatTransport,
  limiter: RateLimiter,
  countTokens: (text: string) => number,
): ChatTransport {
  return {
    async complete(call: ChatCall): Promise<ChatReply> {
      const release = await limiter.acquire(
        limiter.countsTokens ? estimateChatTokens(call, countTokens) : 0,
        call.signal,
      )
      try {
        call.beforeSend?.()
        return await inner.complete(call)
      } finally {
        release()
      }
    },
    async *stream(call: ChatCall): AsyncIterable<string> {
      const release = await limiter.acquire(
        limiter.countsTokens ? estimateChatTokens(call, countTokens) : 0,
        call.signal,
      )
      try {
        call.beforeSend?.()
        yield* inner.stream(call)
      } finally {
        release()
      }
    },
  }
}

export function limitedEmbed(
  inner: EmbedTransport,
  limiter: RateLimiter,
  countTokens: (text: string) => number,
): EmbedTransport {
  return {
    async embed(call: EmbedCall): Promise<EmbedReply> {
      const tokens = limiter.countsTokens ? call.input.reduce((n, t) => n + countTokens(t), 0) : 0
      const release = await limiter.acquire(tokens, call.signal)
      try {
        call.beforeSend?.()
        return await inner.embed(call)
      } finally {
        release()
      }
    },
  }
}
