/**
 * A model served by several endpoints (`api_base` as a list). Each call goes to the endpoint with the
 * most free capacity (its own concurrency and rate limits, scaled by weight). An endpoint that fails
 * for its own reasons (connection refused or reset, timeouts or a 5xx streak) leaves the rotation for a
 * cool-down that doubles while it keeps failing, then gets one probe call; a call that failed there
 * goes on at once to another endpoint. Replies do not depend on the endpoint, so neither does the cache.
 */
import { AttemptFailure } from './failure.js'
import { estimateChatTokens, type RateLimiter } from './rate-limit.js'
import type { ChatCall, ChatReply, ChatTransport, EmbedCall, EmbedReply, EmbedTransport } from './transport.js'

export interface PoolMember {
  /** The endpoint as it may be shown (no credentials). */
  label: string
  weight: number
  capacity: number
  limiter: RateLimiter
  transport: ChatTransport & EmbedTransport
}

export type EndpointState = 'up' | 'down' | 'probing'

export interface EndpointStats {
  endpoint: string
  state: EndpointState
  calls: number
  failures: number
  in_flight: number
}

export interface PoolOptions {
  /** First cool-down of a failing endpoint (default 15 s); doubles per further failure, up to maxCooldownMs. */
  cooldownMs?: number
  maxCooldownMs?: number
  /** Timeouts or 5xx in a row that take an endpoint out (default 3); a refused connection does at once. */
  failureStreak?: number
  now?: () => number
}

interface Member extends PoolMember {
  calls: number
  failures: number
  inFlight: number
  streak: number
  /** When it may be tried again; 0 while in rotation. */
  downUntil: number
  downs: number
}

export class EndpointPool {
  private readonly members: Member[]
  private readonly cooldownMs: number
  private readonly maxCooldownMs: number
  private readonly failureStreak: number
  private readonly now: () => number

  constructor(members: readonly PoolMember[], options: PoolOptions = {}) {
    this.members = members.map((m) => ({
      ...m,
      calls: 0,
      failures: 0,
      inFlight: 0,
      streak: 0,
      downUntil: 0,
      downs: 0,
    }))
    this.cooldownMs = options.cooldownMs ?? 15_000
    this.maxCooldownMs = options.maxCooldownMs ?? 300_000
    this.failureStreak = options.failureStreak ?? 3
    this.now = options.now ?? Date.now
  }

  stats(): EndpointStats[] {
    return this.members.map((m) => ({
      endpoint: m.label,
      state: this.state(m),
      calls: m.calls,
      failures: m.failures,
      in_flight: m.inFlight,
    }))
  }

  private state(m: Member): EndpointState {
    if (m.downUntil === 0) return 'up'
    return this.now() >= m.downUntil ? 'probing' : 'down'
  }

  /** The usable endpoint (not in `tried`) with the most free capacity for its weight. */
  private pick(tried: ReadonlySet<Member>, tokens: number): Member | undefined {
    let best: Member | undefined
    let bestScore = Number.POSITIVE_INFINITY
    for (const m of this.members) {
      if (tried.has(m)) continue
      const state = this.state(m)
      if (state === 'down' || (state === 'probing' && m.inFlight > 0)) continue
      // Free now beats queued; then the least loaded relative to capacity × weight.
      const load = m.inFlight / (m.capacity * m.weight)
      const score = (m.limiter.canAdmit(tokens) ? 0 : 1_000) + load
      if (score < bestScore) {
        best = m
        bestScore = score
      }
    }
    return best
  }

  async run<T>(
    tokens: number,
    signal: AbortSignal | undefined,
    beforeSend: (() => void) | undefined,
    attempt: (t: ChatTransport & EmbedTransport) => Promise<T>,
  ): Promise<T> {
    const tried = new Set<Member>()
    let last: AttemptFailure | undefined
    for (;;) {
      const m = this.pick(tried, tokens)
      if (m === undefined) throw this.exhausted(last)
      tried.add(m)
      const release = await m.limiter.acquire(tokens, signal)
      m.inFlight += 1
      m.calls += 1
      try {
        beforeSend?.()
        const result = await attempt(m.transport)
        m.streak = 0
        m.downUntil = 0
        m.downs = 0
        return result
      } catch (error) {
        if (!(error instanceof AttemptFailure) || !this.endpointFault(m, error)) throw error
        last = error
      } finally {
        m.inFlight -= 1
        release()
      }
    }
  }

  /** Counts a failure that is the endpoint's own; returns whether another endpoint should take the call. */
  private endpointFault(m: Member, failure: AttemptFailure): boolean {
    const status = failure.status ?? 0
    const own = failure.kind === 'connection' || failure.kind === 'timeout' || status >= 500 || status === 429
    if (!own) return false
    m.failures += 1
    if (status === 429) return true
    m.streak += 1
    if (failure.kind === 'connection' || m.streak >= this.failureStreak || m.downUntil !== 0) {
      m.downs += 1
      m.downUntil = this.now() + Math.min(this.maxCooldownMs, this.cooldownMs * 2 ** (m.downs - 1))
      m.streak = 0
    }
    return true
  }

  /** Every endpoint failed this call or is out: retryable, after the earliest comes back. */
  private exhausted(last: AttemptFailure | undefined): AttemptFailure {
    const now = this.now()
    const back = this.members.filter((m) => m.downUntil > now).map((m) => m.downUntil - now)
    const waitMs = back.length === this.members.length ? Math.min(...back) : undefined
    const states = this.stats()
      .map((s) => `${s.endpoint} ${s.state}`)
      .join(', ')
    return new AttemptFailure(
      `no endpoint of the pool answered (${last?.message ?? 'all out of rotation'}; ${states})`,
      {
        kind: last?.kind ?? 'connection',
        ...(last?.status === undefined ? {} : { status: last.status }),
        retryable: true,
        ...(waitMs === undefined ? {} : { retryAfterMs: waitMs }),
      },
    )
  }
}

/** The pool as one transport: the retry layer above sees one endpoint that rarely fails. */
export function pooledTransport(
  pool: EndpointPool,
  countTokens: (text: string) => number,
): ChatTransport & EmbedTransport {
  return {
    complete: (call: ChatCall): Promise<ChatReply> =>
      pool.run(estimateChatTokens(call, countTokens), call.signal, call.beforeSend, (t) => t.complete(call)),
    async *stream(call: ChatCall): AsyncIterable<string> {
      // A stream is bound to its endpoint once it has started: only opening it moves between endpoints,
      // and the endpoint's slot is freed once the first text arrives (the model-wide limiter still holds one).
      const iterator = await pool.run(
        estimateChatTokens(call, countTokens),
        call.signal,
        call.beforeSend,
        async (t) => {
          const it = t.stream(call)[Symbol.asyncIterator]()
          const first = await it.next()
          return { it, first }
        },
      )
      if (iterator.first.done === true) return
      yield iterator.first.value
      for (;;) {
        const next = await iterator.it.next()
        if (next.done === true) return
        yield next.value
      }
    },
    embed: (call: EmbedCall): Promise<EmbedReply> =>
      pool.run(
        call.input.reduce((n, t) => n + countTokens(t), 0),
        call.signal,
        call.beforeSend,
        (t) => t.embed(call),
      ),
  }
}
