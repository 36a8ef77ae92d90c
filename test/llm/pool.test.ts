/**
 * Model pools: three local servers, one stopped mid-run and one slow. Every call completes, the slow
 * one gets fewer calls, the stopped one leaves the rotation and comes back after its cool-down, and
 * the replies and cache entries equal those of a single-endpoint run.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createChatModel, createEmbeddingModel, createEndpointPool, type ModelOptions } from '../../src/llm/index.js'
import { MemoryKeyValueStore } from '../../src/storage/key-value-store.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions } from './helpers.js'

const CALLS = 60

function pooled(fakes: readonly FakeLlm[], extra: Partial<ModelOptions> = {}): ModelOptions {
  return fakeOptions(fakes[0]!, {
    pool: fakes.map((f, i) => ({
      apiBase: f.baseUrl,
      apiKey: `pool-key-${i}`,
      concurrentRequests: 4,
      requestsPerMinute: undefined,
      tokensPerMinute: undefined,
      weight: 1,
    })),
    concurrentRequests: 4,
    ...extra,
  })
}

const question = (i: number) => [{ role: 'user' as const, content: `Question number ${i}: what is ${i} squared?` }]

describe('model pool', () => {
  const started: FakeLlm[] = []
  afterEach(async () => {
    await Promise.all(started.splice(0).map((f) => f.close().catch(() => {})))
  })

  it('spreads calls by free capacity, survives a stopped and a slow server, and answers as one endpoint does', async () => {
    const [fast, slow, stopped, single] = await Promise.all([
      startFakeLlm({ latency: { fixedMs: 20 } }),
      startFakeLlm({ latency: { fixedMs: 400 } }),
      startFakeLlm({ latency: { fixedMs: 200 } }),
      startFakeLlm(),
    ])
    started.push(fast!, slow!, stopped!, single!)
    const options = pooled([fast!, slow!, stopped!])
    const pool = createEndpointPool(options, { cooldownMs: 60_000 })
    const cache = new MemoryKeyValueStore()
    const model = createChatModel(options, { pool, cache })

    const pending = Array.from(
      { length: CALLS },
      async (_, i) => (await model.complete({ messages: question(i) })).content,
    )
    // Stop the third server once it has calls of the run in flight.
    while (stopped!.requests.length < 3) await new Promise((resolve) => setTimeout(resolve, 5))
    await stopped!.close()
    const replies = await Promise.all(pending)
    const stats = pool.stats()
    const [fastStats, slowStats, stoppedStats] = stats
    expect(stats.reduce((n, s) => n + s.calls, 0)).toBeGreaterThanOrEqual(CALLS)
    expect(fastStats!.calls).toBeGreaterThan(slowStats!.calls)
    expect(slowStats!.calls).toBeGreaterThan(0)
    expect(stoppedStats!.state).toBe('down')
    // Its calls in flight when it stopped (at least the three it had received) failed there and went elsewhere.
    expect(stoppedStats!.failures).toBeGreaterThanOrEqual(3)
    expect(stats.reduce((n, s) => n + s.calls, 0)).toBe(CALLS + stoppedStats!.failures)
    expect(fastStats!.failures + slowStats!.failures).toBe(0)
    // Each endpoint got its own key.
    expect(fast!.requests.every((r) => r.headers.authorization === 'Bearer pool-key-0')).toBe(true)
    expect(slow!.requests.every((r) => r.headers.authorization === 'Bearer pool-key-1')).toBe(true)
    // No key in what the pool shows.
    expect(JSON.stringify(stats)).not.toContain('pool-key')

    // One endpoint, same questions: same answers, and every one served from the pool run's cache.
    const alone = createChatModel(fakeOptions(single!), { cache })
    for (let i = 0; i < CALLS; i++) {
      const reply = await alone.complete({ messages: question(i) })
      expect(reply.content).toBe(replies[i])
      expect(reply.cached).toBe(true)
    }
    expect(single!.requests).toHaveLength(0)
    const fresh = createChatModel(fakeOptions(single!))
    expect((await fresh.complete({ messages: question(7) })).content).toBe(replies[7])
  }, 30_000)

  it('takes a failing endpoint out, tries it again after the cool-down, and embeds through the pool', async () => {
    const [a, b] = await Promise.all([startFakeLlm({ embeddingDimension: 4 }), startFakeLlm({ embeddingDimension: 4 })])
    started.push(a!, b!)
    a!.setFaults({ rate: 1, kinds: ['500'] })
    const options = pooled([a!, b!], {
      retry: { type: 'immediate', maxRetries: 0, baseDelay: 0, jitter: false, maxDelay: undefined },
    })
    let now = 0
    const pool = createEndpointPool(options, { cooldownMs: 1_000, failureStreak: 2, now: () => now })
    const model = createEmbeddingModel(options, { pool }, { batchSize: 1 })
    for (let i = 0; i < 6; i++) await model.embed([`text ${i}`])
    expect(pool.stats()[0]).toMatchObject({ state: 'down', failures: 2 })
    const before = a!.requests.length
    for (let i = 0; i < 3; i++) await model.embed([`more ${i}`])
    expect(a!.requests.length).toBe(before)
    a!.setFaults(undefined)
    now += 1_500
    expect(pool.stats()[0]!.state).toBe('probing')
    for (let i = 0; i < 8; i++) await model.embed([`back ${i}`])
    expect(a!.requests.length).toBeGreaterThan(before)
    expect(pool.stats()[0]!.state).toBe('up')
  }, 30_000)
})
