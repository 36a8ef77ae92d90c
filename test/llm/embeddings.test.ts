import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlmError } from '../../src/errors.js'
import { createEmbeddingModel } from '../../src/llm/index.js'
import { getTokenizer } from '../../src/llm/tokenizer.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { fakeEmbedding, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions } from './helpers.js'

const DIM = 8
const texts = Array.from(
  { length: 37 },
  (_, i) => `text number ${i} about the ghost of Christmas ${i % 3 === 0 ? 'past' : 'present'}`,
)

describe('embedding batches', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: DIM, maxEmbeddingInputs: 5 })
  })
  afterAll(() => fake.close())

  const model = (batching: { batchSize?: number; batchMaxTokens?: number }, meter = new UsageMeter(undefined)) =>
    createEmbeddingModel(
      { ...fakeOptions(fake), model: 'text-embedding-3-small', id: 'e', settingsPath: 'embedding_models.e' },
      { meter },
      batching,
    )

  it('packs by batch_size and batch_max_tokens, preserving order', async () => {
    const before = fake.requests.length
    const vectors = await model({ batchSize: 4 }).embed(texts)
    expect(vectors).toEqual(texts.map((t) => fakeEmbedding(t, DIM)))
    const inputs = fake.requests.slice(before).map((r) => (r.body as { input: string[] }).input.length)
    expect(inputs.sort((a, b) => b - a)).toEqual([...Array(9).fill(4), 1])
    const byTokens = fake.requests.length
    await model({ batchSize: 4, batchMaxTokens: 25 }).embed(texts.slice(0, 8))
    // Each text has about 10 tokens, so at most two fit under 25.
    expect(fake.requests.slice(byTokens).every((r) => (r.body as { input: string[] }).input.length <= 2)).toBe(true)
  })

  it('splits a failing batch in halves down to what the server accepts, keeping order', async () => {
    const before = fake.requests.length
    const meter = new UsageMeter(undefined)
    const vectors = await model({ batchSize: 16 }, meter).embed(texts)
    expect(vectors).toEqual(texts.map((t) => fakeEmbedding(t, DIM)))
    const statuses = fake.requests.slice(before).map((r) => r.status)
    const rejected = statuses.filter((s) => s === 413).length
    // 37 texts in batches of 16, 16, 5: each 16 fails, then both its 8s, then its four 4s pass.
    expect(rejected).toBe(6)
    // Every text got its vector, so nothing failed: the rejected requests count as retries.
    expect(meter.snapshot()).toMatchObject({ calls: statuses.length, failures: 0, retries: rejected })
  })

  it('splits on retryable failures too, and gives up on a single text', async () => {
    const noRetry = { type: 'immediate' as const, maxRetries: 0, baseDelay: 0, jitter: false, maxDelay: undefined }
    const meter = new UsageMeter(undefined)
    const m = createEmbeddingModel(
      { ...fakeOptions(fake, { retry: noRetry }), model: 'text-embedding-3-small' },
      { meter },
      { batchSize: 4 },
    )
    fake.setFaults({ rate: 1, kinds: ['500'] })
    const before = fake.requests.length
    const error = await m.embed(texts.slice(0, 4)).catch((e: unknown) => e)
    fake.setFaults(undefined)
    expect(error).toBeInstanceOf(LlmError)
    // The batch of 4, then its halves of 2, then the four single texts, which fail for good. The call
    // rejects only once all of them have settled, so the counts are final: the splits are retries and
    // only the single texts count as failures.
    expect(fake.requests.length - before).toBe(7)
    expect(meter.snapshot()).toMatchObject({ calls: 7, retries: 3, failures: 4 })
  })

  it('with 30 % injected faults every batch eventually succeeds, in order', async () => {
    fake.setFaults({
      rate: 0.3,
      kinds: ['429', '500', 'hang', 'truncated', 'malformed'],
      seed: 11,
      retryAfterSeconds: 0.01,
    })
    const retry = {
      type: 'exponential_backoff' as const,
      maxRetries: 12,
      baseDelay: 0.005,
      jitter: true,
      maxDelay: 0.05,
    }
    const meter = new UsageMeter(undefined)
    const m = createEmbeddingModel(
      { ...fakeOptions(fake, { retry, requestTimeoutSeconds: 1.5 }), model: 'text-embedding-3-small' },
      { meter },
      { batchSize: 2 },
    )
    const vectors = await m.embed(texts)
    fake.setFaults(undefined)
    expect(vectors).toEqual(texts.map((t) => fakeEmbedding(t, DIM)))
    expect(meter.snapshot().retries).toBeGreaterThan(0)
    expect(meter.snapshot().failures).toBe(0)
  })

  it('windows a long text, mean-pools and L2-normalises', async () => {
    const tokenizer = getTokenizer('cl100k_base')
    const long = Array.from({ length: 300 }, (_, i) => `word${i}`).join(' ')
    expect(tokenizer.count(long)).toBeGreaterThan(200)
    const before = fake.requests.length
    const [vector, short, empty] = await model({ batchSize: 16, batchMaxTokens: 120 }).embed([long, 'short', ''])
    const windows = fake.requests
      .slice(before)
      .flatMap((r) => (r.body as { input: string[] }).input)
      .filter((t) => t !== 'short')
    expect(windows.length).toBeGreaterThan(2)
    windows.forEach((w) => expect(tokenizer.count(w)).toBeLessThanOrEqual(120))
    const mean = Array.from({ length: DIM }, (_, i) => windows.reduce((s, w) => s + fakeEmbedding(w, DIM)[i]!, 0))
    const norm = Math.hypot(...mean)
    vector!.forEach((v, i) => expect(v).toBeCloseTo(mean[i]! / norm, 10))
    expect(Math.hypot(...vector!)).toBeCloseTo(1, 10)
    expect(short).toEqual(fakeEmbedding('short', DIM))
    expect(empty).toEqual([])
  })
})
