import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlmError } from '../../src/errors.js'
import { AttemptFailure } from '../../src/llm/failure.js'
import { createChatModel, UsageMeter } from '../../src/llm/index.js'
import { waitMs, withRetry, type RetryContext } from '../../src/llm/retry.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions, HELLO } from './helpers.js'

const REPORT_FORMAT = {
  type: 'json_schema' as const,
  name: 'report',
  schema: {
    type: 'object',
    required: ['title', 'findings'],
    properties: { title: { type: 'string' }, findings: { type: 'array' } },
  },
}

describe('retries through the fake server', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm()
  })
  afterAll(() => fake.close())

  it('honours Retry-After between attempts and reports the attempt count', async () => {
    fake.setFaults({ rate: 1, kinds: ['429'], retryAfterSeconds: 0.2 })
    const before = fake.requests.length
    const meter = new UsageMeter(undefined)
    const model = createChatModel(
      fakeOptions(fake, {
        retry: { type: 'exponential_backoff', maxRetries: 2, baseDelay: 0.001, jitter: false, maxDelay: 0.001 },
      }),
      { meter },
    )
    const error = await model.complete({ messages: HELLO }).catch((e: unknown) => e)
    fake.setFaults(undefined)
    expect(error).toBeInstanceOf(LlmError)
    expect(error).toMatchObject({ attempts: 3, status: 429, model: 'completion_models.default_completion_model' })
    expect((error as LlmError).message).toContain('3 attempts')
    const starts = fake.requests.slice(before).map((r) => r.startedAt)
    expect(starts).toHaveLength(3)
    // max_delay is 1 ms, so only the server's Retry-After (200 ms) explains the gaps.
    for (let i = 1; i < starts.length; i++) expect(starts[i]! - starts[i - 1]!).toBeGreaterThanOrEqual(150)
    expect(meter.snapshot()).toMatchObject({ calls: 1, retries: 2, failures: 1 })
  })

  it('fails fast on 401 naming the model and the key origin, never the key', async () => {
    const before = fake.requests.length
    const model = createChatModel(fakeOptions(fake, { apiKey: 'bad-key' }))
    const error = (await model.complete({ messages: HELLO }).catch((e: unknown) => e)) as LlmError
    expect(error).toBeInstanceOf(LlmError)
    expect(error).toMatchObject({ status: 401, attempts: 1, retryable: false })
    expect(error.message).toContain('completion_models.default_completion_model')
    expect(error.message).toContain('environment variable GRAPHRAG_API_KEY')
    expect(error.message).not.toContain('bad-key')
    // The server's 401 text echoes the key: nothing along the cause chain may carry it either.
    expect(inspect(error, { depth: 10 })).not.toContain('bad-key')
    expect(JSON.stringify(error)).not.toContain('bad-key')
    expect(fake.requests.length - before).toBe(1)
  })

  it('keeps a long key out of a 401 error, whole and in the masked form the server echoes', async () => {
    const key = 'bad-key-sk-proj-7f3a9c1e5b2dQZXW'
    const error = (await createChatModel(fakeOptions(fake, { apiKey: key }))
      .complete({ messages: HELLO })
      .catch((e: unknown) => e)) as LlmError
    expect(error).toMatchObject({ status: 401 })
    const shown = inspect(error, { depth: 10 })
    expect(shown).not.toContain(key)
    expect(shown).not.toContain(key.slice(-4))
  })

  it('with 30 % injected faults of every kind, every request eventually succeeds', async () => {
    fake.setFaults({
      rate: 0.3,
      kinds: ['429', '500', 'hang', 'truncated', 'malformed'],
      seed: 7,
      retryAfterSeconds: 0.01,
    })
    const before = fake.requests.length
    const meter = new UsageMeter(undefined)
    const model = createChatModel(
      fakeOptions(fake, {
        requestTimeoutSeconds: 1.5,
        concurrentRequests: 16,
        retry: { type: 'exponential_backoff', maxRetries: 12, baseDelay: 0.005, jitter: true, maxDelay: 0.05 },
      }),
      { meter },
    )
    const prompts = Array.from({ length: 120 }, (_, i) => `Write a report about subject ${i}`)
    const replies = await Promise.all(
      prompts.map((content, i) =>
        model.complete({
          messages: [{ role: 'user', content }],
          ...(i % 2 === 0 ? { responseFormat: REPORT_FORMAT } : {}),
        }),
      ),
    )
    fake.setFaults(undefined)
    expect(replies).toHaveLength(120)
    replies.forEach((r, i) =>
      i % 2 === 0 ? expect(r.json).toMatchObject({ title: expect.any(String) }) : expect(r.content).not.toBe(''),
    )
    const faulted = fake.requests.slice(before).filter((r) => r.fault !== undefined)
    expect(new Set(faulted.map((r) => r.fault))).toEqual(new Set(['429', '500', 'hang', 'truncated', 'malformed']))
    const usage = meter.snapshot()
    expect(usage).toMatchObject({ calls: 120, failures: 0 })
    // Every injected fault cost one retry (a loaded machine may add a few timeouts of its own).
    expect(usage.retries).toBeGreaterThanOrEqual(faulted.length)
    expect(fake.requests.length - before).toBeGreaterThanOrEqual(120 + faulted.length)
  })

  it('waits base_delay^n seconds as the reference does, plus up to 1 s of jitter, capped by max_delay', () => {
    const policy = {
      type: 'exponential_backoff' as const,
      maxRetries: 5,
      baseDelay: 2,
      jitter: false,
      maxDelay: undefined,
    }
    const ctx: RetryContext = { modelRef: 'm', keyOrigin: undefined, policy }
    const f = new AttemptFailure('x', { kind: 'http', status: 500, retryable: true })
    expect([1, 2, 3, 7].map((n) => waitMs(ctx, f, n))).toEqual([2000, 4000, 8000, 128_000])
    // A base other than 2 tells base^n apart from base × 2^(n-1): 3, 9, 27 s, not 3, 6, 12 s.
    const base3 = { ...ctx, policy: { ...policy, baseDelay: 3 } }
    expect([1, 2, 3].map((n) => waitMs(base3, f, n))).toEqual([3000, 9000, 27_000])
    expect([1, 2, 3].map((n) => waitMs({ ...base3, policy: { ...base3.policy, maxDelay: 10 } }, f, n))).toEqual([
      3000, 9000, 10_000,
    ])
    // Jitter is U(0,1) seconds whatever the base, and the cap applies after it.
    expect(waitMs({ ...base3, policy: { ...base3.policy, jitter: true }, random: () => 0.5 }, f, 2)).toBe(9500)
    expect(
      waitMs({ ...base3, policy: { ...base3.policy, jitter: true, maxDelay: 9.2 }, random: () => 0.5 }, f, 2),
    ).toBe(9200)
    expect(waitMs({ ...ctx, policy: { ...policy, type: 'immediate' } }, f, 3)).toBe(0)
  })

  it('lets Retry-After win over the backoff, even beyond max_delay', () => {
    const policy = { type: 'exponential_backoff' as const, maxRetries: 5, baseDelay: 2, jitter: true, maxDelay: 5 }
    const ctx: RetryContext = { modelRef: 'm', keyOrigin: undefined, policy, random: () => 0.9 }
    const limited = new AttemptFailure('x', { kind: 'http', status: 429, retryable: true, retryAfterMs: 7000 })
    expect(waitMs(ctx, limited, 1)).toBe(7000)
    expect(
      waitMs(ctx, new AttemptFailure('x', { kind: 'http', status: 429, retryable: true, retryAfterMs: 0 }), 3),
    ).toBe(0)
  })

  it('does not retry errors that are not attempt failures', async () => {
    let calls = 0
    const ctx: RetryContext = {
      modelRef: 'm',
      keyOrigin: undefined,
      policy: { type: 'immediate', maxRetries: 3, baseDelay: 0, jitter: false, maxDelay: undefined },
    }
    await expect(
      withRetry(ctx, new UsageMeter(undefined), undefined, async () => {
        calls++
        throw new TypeError('bug')
      }),
    ).rejects.toThrow(TypeError)
    expect(calls).toBe(1)
  })
})
