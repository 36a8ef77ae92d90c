import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChatModel } from '../../src/llm/index.js'
import { estimateChatTokens, RateLimiter } from '../../src/llm/rate-limit.js'
import { encodingForModel, getTokenizer } from '../../src/llm/tokenizer.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions } from './helpers.js'

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

describe('RateLimiter', () => {
  it('never runs more than concurrentRequests at once and keeps FIFO order', async () => {
    const limiter = new RateLimiter({ concurrentRequests: 3, periodSeconds: 60, requestsPerPeriod: undefined, tokensPerPeriod: undefined })
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
    const limiter = new RateLimiter({ concurrentRequests: 10, periodSeconds: 0.3, requestsPerPeriod: 2, tokensPerPeriod: undefined })
    const started = performance.now()
    const times: number[] = []
    await Promise.all(Array.from({ length: 6 }, async () => {
      const release = await limiter.acquire(1)
      times.push(performance.now() - started)
      release()
    }))
    // Two per 300 ms window: the 5th and 6th start no earlier than 600 ms.
    expect(times[4]!).toBeGreaterThanOrEqual(580)
    for (let i = 2; i < times.length; i++) expect(times[i]! - times[i - 2]!).toBeGreaterThanOrEqual(280)
  })

  it('lets a request larger than the whole budget through alone', async () => {
    const limiter = new RateLimiter({ concurrentRequests: 10, periodSeconds: 0.2, requestsPerPeriod: undefined, tokensPerPeriod: 100 })
    const release = await limiter.acquire(500)
    release()
    const started = performance.now()
    ;(await limiter.acquire(10))()
    expect(performance.now() - started).toBeGreaterThanOrEqual(150)
  })

  it('removes an aborted waiter from the queue', async () => {
    const limiter = new RateLimiter({ concurrentRequests: 1, periodSeconds: 60, requestsPerPeriod: undefined, tokensPerPeriod: undefined })
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

  it('never exceeds tokens_per_period in any window of the period', async () => {
    const periodMs = 1000
    const limit = 500
    const model = createChatModel(
      fakeOptions(fake, { callArgs: { max_tokens: 60 }, concurrentRequests: 10, rateLimit: { periodSeconds: periodMs / 1000, requestsPerPeriod: undefined, tokensPerPeriod: limit } }),
      { meter: new UsageMeter(undefined) },
    )
    const tokenizer = getTokenizer(encodingForModel('gpt-4.1-mini'))
    const prompts = Array.from({ length: 12 }, (_, i) => `Question ${i}: ${'what did Scrooge see on Christmas Eve and why did it matter '.repeat(2)}`)
    const estimate = new Map(
      prompts.map((p) => [p, estimateChatTokens({ messages: [{ role: 'user', content: p }], params: { max_tokens: 60 } } as never, tokenizer.count)]),
    )
    // Warm up the server's tokenizer first: its one-off load would skew arrival times.
    await model.complete({ messages: [{ role: 'user', content: 'warm-up' }] })
    await sleep(periodMs)
    const before = fake.requests.length
    const started = performance.now()
    await Promise.all(prompts.map((content) => model.complete({ messages: [{ role: 'user', content }] })))
    const elapsed = performance.now() - started
    const sent = fake.requests.slice(before).map((r) => ({ at: r.startedAt, tokens: estimate.get((r.body as { messages: Array<{ content: string }> }).messages[0]!.content)! }))
    expect(sent).toHaveLength(12)
    const total = [...estimate.values()].reduce((a, b) => a + b, 0)
    expect(total).toBeGreaterThan(2 * limit)
    // Server arrival times lag the grant by a few ms, so the window checked is 100 ms shorter.
    for (const r of sent) {
      const inWindow = sent.filter((o) => o.at <= r.at && o.at > r.at - (periodMs - 100)).reduce((n, o) => n + o.tokens, 0)
      expect(inWindow).toBeLessThanOrEqual(limit)
    }
    expect(elapsed).toBeGreaterThanOrEqual((Math.ceil(total / limit) - 1) * periodMs - 50)
  }, 20_000)
})
