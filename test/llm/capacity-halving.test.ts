/**
 * Batch halving on capacity errors (issue 45): a server that answers "input too large" with a 400
 * or 500 (vLLM, llama.cpp) is not asked the same batch again `max_retries` times; the batch is
 * halved on the first such reply. A plain 500 is still retried before any split.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createEmbeddingModel } from '../../src/llm/index.js'
import { isCapacityFailure } from '../../src/llm/failure.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { fakeEmbedding, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions } from './helpers.js'

const DIM = 4
const texts = Array.from({ length: 8 }, (_, i) => `passage ${i} of the ledger`)
const retry = { type: 'immediate' as const, maxRetries: 3, baseDelay: 0, jitter: false, maxDelay: undefined }

let fake: FakeLlm | undefined
afterEach(() => fake?.close())

async function embedAgainst(overCapacityReply: { status: number; message: string }) {
  fake = await startFakeLlm({ embeddingDimension: DIM, maxEmbeddingInputs: 2, overCapacityReply })
  const meter = new UsageMeter(undefined)
  const model = createEmbeddingModel(
    { ...fakeOptions(fake, { retry }), model: 'text-embedding-3-small', id: 'e', settingsPath: 'embedding_models.e' },
    { meter },
    { batchSize: 8 },
  )
  const vectors = await model.embed(texts)
  return { vectors, statuses: fake.requests.map((r) => r.status), meter: meter.snapshot() }
}

describe('capacity errors halve the batch at once', () => {
  it.each([
    [500, 'input is too large to process. increase the physical batch size'],
    [400, "This model's maximum context length is 512 tokens. However, you requested 900 tokens"],
    [413, 'Payload Too Large'],
  ])('HTTP %i "%s": 8 → 4 → 2, one request per size', async (status, message) => {
    const { vectors, statuses, meter } = await embedAgainst({ status, message })
    expect(vectors).toEqual(texts.map((t) => fakeEmbedding(t, DIM)))
    // One 8 and two 4s rejected once each, then four 2s accepted: 7 requests, not 4 × (1 + 3 retries) + 4.
    expect(statuses.filter((s) => s === status)).toHaveLength(3)
    expect(statuses.filter((s) => s === 200)).toHaveLength(4)
    expect(meter).toMatchObject({ calls: 7, failures: 0, retries: 3 })
  })

  it('classifies by status and message', () => {
    expect(isCapacityFailure(500, 'input is too large to process')).toBe(true)
    expect(isCapacityFailure(500, 'internal server error')).toBe(false)
    expect(
      isCapacityFailure(400, 'Input validation error: inputs must have less than 512 tokens (too many tokens)'),
    ).toBe(true)
    expect(isCapacityFailure(400, 'unknown parameter')).toBe(false)
    expect(isCapacityFailure(429, 'too large a rate')).toBe(false)
  })
})
