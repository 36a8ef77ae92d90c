import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createChatModel } from '../../src/llm/index.js'
import { estimateChatTokens, RateLimiter } from '../../src/llm/rate-limit.js'
import { encodingForModel, getTokenizer } from '../../src/llm/tokenizer.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions } from './helpers.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('RateLimiter', () => {
  it('never runs more than concurrentRequests at once and keeps FIFO order', async () => {
    const limiter = new RateLimiter({
      concurrentRequests: 3,
      periodSeconds: 60,
      requestsPerPeriod: undefined,
      tokensPerPeriod: undefined,
    })
    let active = 0
    let peak = 0
    const order: number[] = []
    await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const release = await limiter.acquire(0)
        order.push(i)
        peak = Math.max(peak, ++active)
        await sleep(10)
        active--
        release()
      }),
    )
    expect(peak).toBe(3)
    expect(order).toEqual([...order].sort((a, b) => a - b))
  })

  it('limits requests per sliding period', async () => {
    const limiter = new RateLimiter({
      concurrentRequests: 10,
      periodSeconds: 0.3,
      requestsPerPeriod: 2,
      tokensPerPeriod: undefined,
    })
    const started = performance.now()
    const times: number[] = []
    await Promise.all(
      Array.from({ length: 6 }, async () => {
        const release = await limiter.acquire(1)
        times.push(performance.now() - started)
        release()
      }),
    )
    // Two per 300 ms window: the 5th and 6th start no earlier than 600 ms.
    expect(times[4]!).toBeGreaterThanOrEqual(580)
    for (let i = 2; i < times.length; i++) expect(times[i]! - times[i - 2]!).toBeGreaterThanOrEqual(280)
  })

  it('lets a request larger than the whole budget through alone', async () => {
    const limiter = new RateLimiter({
      concurrentRequests: 10,
      periodSeconds: 0.2,
      requestsPerPeriod: undefined,
      tokensPerPeriod: 100,
    })
    const release = await limiter.acquire(500)
    release()
    const started = performance.now()
    ;(await limiter.acquire(10))()
    expect(performance.now() - started).toBeGreaterThanOrEqual(150)
  })

  it('keeps every 60-second window within tokens_per_period and requests_per_period (fake clock)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const periodMs = 60_000
      const rpm = 40
      const tpm = 20_000
      const limiter = new RateLimiter(
        { concurrentRequests: 6, periodSeconds: periodMs / 1000, requestsPerPeriod: rpm, tokensPerPeriod: tpm },
        () => Date.now(),
      )
      // Small requests first (the request limit binds), then large ones (the token limit binds); each
      // holds its slot for 0.5–9.5 s of fake time.
      const jobs = Array.from({ length: 300 }, (_, i) => ({
        tokens: i < 120 ? 50 + (i % 7) * 10 : 400 + ((i * 7919) % 1300),
        holdMs: 500 + ((i * 104_729) % 9000),
      }))
      const started = Date.now()
      const grants: Array<{ at: number; tokens: number }> = []
      let active = 0
      let peak = 0
      const done = Promise.all(
        jobs.map(async (job) => {
          const release = await limiter.acquire(job.tokens)
          grants.push({ at: Date.now() - started, tokens: job.tokens })
          peak = Math.max(peak, ++active)
          await new Promise((r) => setTimeout(r, job.holdMs))
          active--
          release()
        }),
      )
      await vi.runAllTimersAsync()
      await done
      expect(grants).toHaveLength(jobs.length)
      expect(peak).toBe(6)
      // A window's load only grows when a request starts, so the windows ending at each start cover every maximum.
      const windows = grants.map((g) => {
        const inside = grants.filter((o) => o.at > g.at - periodMs && o.at <= g.at)
        return { requests: inside.length, tokens: inside.reduce((n, o) => n + o.tokens, 0) }
      })
      for (const w of windows) {
        expect(w.requests).toBeLessThanOrEqual(rpm)
        expect(w.tokens).toBeLessThanOrEqual(tpm)
      }
      // Both limits were actually reached, so the run exercised them rather than passing trivially.
      expect(Math.max(...windows.map((w) => w.requests))).toBe(rpm)
      expect(Math.max(...windows.map((w) => w.tokens))).toBeGreaterThan(tpm - 1700)
      // And the limiter keeps up: each minute is used, not wasted waiting.
      const small = jobs.slice(0, 120).length
      const largeTokens = jobs.slice(120).reduce((n, j) => n + j.tokens, 0)
      const minimumMinutes = Math.ceil(small / rpm) - 1 + Math.ceil(largeTokens / tpm)
      const last = grants.at(-1)!.at
      expect(last).toBeGreaterThanOrEqual((minimumMinutes - 1) * periodMs)
      expect(last).toBeLessThanOrEqual((minimumMinutes + 1) * periodMs)
    } finally {
      vi.useRealTimers()
    }
  })

  it('removes an aborted waiter from the queue', async () => {
    const limiter = new RateLimiter({
      concurrentRequests: 1,
      periodSeconds: 60,
      requestsPerPeriod: undefined,
      tokensPerPeriod: undefined,
    })
    const release = await limiter.acquire(0)
    const controller = new AbortController()
    const waiting = limiter.acquire(0, controller.signal)
    const next = limiter.acquire(0)
    controller.abort(new Error('stop'))
    await expect(waiting).rejects.toThrow('stop')
    release()
    ;(await next)()
  })
})

describe('token rate limit through the fake server', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ latency: { fixedMs: 20 } })
  })
  afterAll(() => fake.close())

  it('sends only the requests whose estimated tokens fit tokens_per_period and holds the rest back', async () => {
    const limit = 500
    const model = createChatModel(
      fakeOptions(fake, {
        callArgs: { max_tokens: 60 },
        concurrentRequests: 16,
        rateLimit: { periodSeconds: 60, requestsPerPeriod: undefined, tokensPerPeriod: limit },
      }),
      { meter: new UsageMeter(undefined) },
    )
    const tokenizer = getTokenizer(encodingForModel('gpt-4.1-mini'))
    const prompts = Array.from(
      { length: 12 },
      (_, i) => `Question ${i}: ${'what did Scrooge see on Christmas Eve and why did it matter '.repeat(2)}`,
    )
    const estimates = prompts.map((content) =>
      estimateChatTokens(
        { messages: [{ role: 'user', content }], params: { max_tokens: 60 } } as never,
        tokenizer.count,
      ),
    )
    let admitted = 0
    for (let used = 0; admitted < prompts.length && used + estimates[admitted]! <= limit; admitted++)
      used += estimates[admitted]!
    expect(admitted).toBeGreaterThan(1)
    expect(admitted).toBeLessThan(prompts.length)
    // The window is a minute long, so nothing leaves it during the test: what fits is sent, the rest
    // waits until it is aborted. No clock reading is involved.
    const controller = new AbortController()
    const before = fake.requests.length
    const replies = prompts.map((content) =>
      model.complete({ messages: [{ role: 'user', content }], signal: controller.signal }),
    )
    await Promise.all(replies.slice(0, admitted))
    controller.abort(new Error('stop waiting'))
    const held = await Promise.allSettled(replies.slice(admitted))
    expect(held.map((r) => r.status)).toEqual(held.map(() => 'rejected'))
    const sent = fake.requests
      .slice(before)
      .map((r) => (r.body as { messages: Array<{ content: string }> }).messages[0]!.content)
    expect(sent.sort()).toEqual(prompts.slice(0, admitted).sort())
  })
})
