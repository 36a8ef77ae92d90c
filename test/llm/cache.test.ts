import { createHash } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlmError } from '../../src/errors.js'
import { createChatModel, createEmbeddingModel, type ModelDeps, type ModelOptions } from '../../src/llm/index.js'
import { cacheKey } from '../../src/llm/cache.js'
import type { BatchingOptions } from '../../src/llm/embeddings.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { MemoryKeyValueStore } from '../../src/storage/key-value-store.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions } from './helpers.js'

const ask = (content: string) => ({ messages: [{ role: 'user' as const, content }] })

describe('LLM cache', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 4 })
  })
  afterAll(() => fake.close())

  it('a hit makes zero HTTP calls; another model name or call parameter misses; the API key and api_base do not matter', async () => {
    const cache = new MemoryKeyValueStore()
    const meter = new UsageMeter(undefined)
    const first = await createChatModel(fakeOptions(fake), { cache, meter }).complete(ask('hello cache'))
    const before = fake.requests.length
    const again = await createChatModel(fakeOptions(fake, { apiKey: 'another-key' }), { cache, meter }).complete(
      ask('hello cache'),
    )
    expect(fake.requests.length).toBe(before)
    expect(again).toEqual({ ...first, cached: true })
    expect(meter.snapshot()).toMatchObject({ calls: 2, cacheHits: 1 })
    await createChatModel(fakeOptions(fake, { model: 'gpt-4.1' }), { cache }).complete(ask('hello cache'))
    expect(fake.requests.length).toBe(before + 1)
    await createChatModel(fakeOptions(fake, { callArgs: { temperature: 0.5 } }), { cache }).complete(ask('hello cache'))
    expect(fake.requests.length).toBe(before + 2)
    // Another host name (or port) for the same server and model: the answer is the same, so it is a hit.
    const moved = await createChatModel(fakeOptions(fake, { apiBase: `http://localhost:${fake.port}/v1` }), {
      cache,
    }).complete(ask('hello cache'))
    expect(fake.requests.length).toBe(before + 2)
    expect(moved.cached).toBe(true)
    expect(await cache.keys()).toHaveLength(3)
  })

  it('does not serve an empty reply stored by an older version: it is a miss, asked again and overwritten', async () => {
    const cache = new MemoryKeyValueStore()
    const model = createChatModel(fakeOptions(fake), { cache })
    const first = await model.complete(ask('poisoned'))
    const [key] = await cache.keys()
    await cache.set(
      key!,
      JSON.stringify({ version: 1, reply: { content: '', usage: { promptTokens: 5, completionTokens: 0 } } }),
    )
    const before = fake.requests.length
    const reply = await model.complete(ask('poisoned'))
    expect(fake.requests.length).toBe(before + 1)
    expect(reply).toEqual({ ...first, cached: false })
    expect(JSON.parse((await cache.get(key!))!).reply.content).toBe(first.content)
  })

  it('ignores and rewrites a corrupt entry', async () => {
    const cache = new MemoryKeyValueStore()
    const model = createChatModel(fakeOptions(fake), { cache })
    await model.complete(ask('corrupt me'))
    const [key] = await cache.keys()
    await cache.set(key!, '{"version": 1, "reply": {"content": 3')
    const before = fake.requests.length
    const reply = await model.complete(ask('corrupt me'))
    expect(reply.cached).toBe(false)
    expect(fake.requests.length).toBe(before + 1)
    expect(JSON.parse((await cache.get(key!))!)).toMatchObject({ version: 1, reply: { content: reply.content } })
    expect((await model.complete(ask('corrupt me'))).cached).toBe(true)
  })

  it('never stores failed or invalid replies, and noCache bypasses it', async () => {
    const cache = new MemoryKeyValueStore()
    const noRetry = { type: 'immediate' as const, maxRetries: 0, baseDelay: 0, jitter: false, maxDelay: undefined }
    const model = createChatModel(fakeOptions(fake, { retry: noRetry }), { cache })
    fake.setFaults({ rate: 1, kinds: ['500'] })
    await expect(model.complete(ask('fails'))).rejects.toBeInstanceOf(LlmError)
    fake.setFaults({ rate: 1, kinds: ['malformed'] })
    const format = {
      type: 'json_schema' as const,
      name: 'x',
      schema: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } },
    }
    await expect(model.complete({ ...ask('invalid'), responseFormat: format })).rejects.toBeInstanceOf(LlmError)
    fake.setFaults(undefined)
    expect(await cache.keys()).toEqual([])
    await model.complete({ ...ask('uncached'), noCache: true })
    expect(await cache.keys()).toEqual([])
    const structured = await model.complete({ ...ask('structured'), responseFormat: format })
    expect((await model.complete({ ...ask('structured'), responseFormat: format })).json).toEqual(structured.json)
  })

  it('keys on canonical JSON (object key order does not matter)', () => {
    expect(cacheKey({ b: 1, a: [{ y: 2, x: 1 }], c: undefined })).toBe(
      createHash('sha256').update('{"a":[{"x":1,"y":2}],"b":1}').digest('hex'),
    )
    expect(cacheKey({ a: 1, b: 2 })).toBe(cacheKey({ b: 2, a: 1 }))
  })
})

describe('embedding cache (per text)', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 4 })
  })
  afterAll(() => fake.close())

  const options = (overrides: Partial<ModelOptions> = {}) => ({
    ...fakeOptions(fake, { model: 'text-embedding-3-small', ...overrides }),
    id: 'e',
    settingsPath: 'embedding_models.e',
  })
  const embedder = (
    deps: ModelDeps,
    overrides: Partial<ModelOptions> = {},
    batching: Partial<BatchingOptions> = { batchSize: 16 },
  ) => createEmbeddingModel(options(overrides), deps, batching)
  const sentSince = (before: number) => fake.requests.slice(before).map((r) => (r.body as { input: string[] }).input)
  const passages = Array.from({ length: 100 }, (_, i) => `passage ${i} of Scrooge's ledger`)

  it('re-sends only an inserted or changed text, in one request, with the vectors and order of a cold run', async () => {
    const cache = new MemoryKeyValueStore()
    const first = await embedder({ cache }).embed(passages)
    expect(await cache.keys()).toHaveLength(passages.length)

    const inserted = ['a passage inserted at the front', ...passages]
    const meter = new UsageMeter(undefined)
    let before = fake.requests.length
    const warm = await embedder({ cache, meter }).embed(inserted)
    expect(sentSince(before)).toEqual([['a passage inserted at the front']])
    expect(meter.snapshot()).toMatchObject({ calls: 101, cacheHits: 100, failures: 0 })
    expect(warm.slice(1)).toEqual(first)
    expect(warm).toEqual(await embedder({}).embed(inserted))

    const changed = passages.map((p, i) => (i === 50 ? 'passage 50, amended' : p))
    before = fake.requests.length
    const vectors = await embedder({ cache }).embed(changed)
    expect(sentSince(before)).toEqual([['passage 50, amended']])
    expect(vectors).toEqual(await embedder({}).embed(changed))
  })

  it('stores a vector as the base64 of its float64 bytes, exactly, and still reads the JSON arrays of earlier versions', async () => {
    const cache = new MemoryKeyValueStore()
    const [cold] = await embedder({ cache }).embed(['stored exactly'])
    const [key] = await cache.keys()
    const entry = JSON.parse((await cache.get(key!))!)
    expect(Object.keys(entry).sort()).toEqual(['float64', 'version'])
    expect(Buffer.from(entry.float64, 'base64')).toHaveLength(8 * cold!.length)
    // Written as JSON.stringify writes the entry, byte for byte (packs written before stay comparable).
    expect(await cache.get(key!)).toBe(
      JSON.stringify({ version: 1, float64: Buffer.from(Float64Array.from(cold!).buffer).toString('base64') }),
    )
    let before = fake.requests.length
    expect(await embedder({ cache }).embed(['stored exactly'])).toEqual([cold])
    // Doubles that float32 (or a rounded decimal) would change, under the same key, in the earlier format.
    const earlier = [1 / 3, -2.5e-300, 0.1, 123456789.12345679]
    await cache.set(key!, JSON.stringify({ version: 1, vector: earlier }))
    expect(await embedder({ cache }).embed(['stored exactly'])).toEqual([earlier])
    await cache.set(
      key!,
      JSON.stringify({ version: 1, float64: Buffer.from(Float64Array.from(earlier).buffer).toString('base64') }),
    )
    expect(await embedder({ cache }).embed(['stored exactly'])).toEqual([earlier])
    expect(fake.requests.length).toBe(before)
    // A value cut short is a miss, asked again.
    await cache.set(key!, JSON.stringify({ version: 1, float64: 'AAAA' }))
    before = fake.requests.length
    expect(await embedder({ cache }).embed(['stored exactly'])).toEqual([cold])
    expect(fake.requests.length).toBe(before + 1)
  })

  it('packs the misses alone into full batches, and sends a repeated text once', async () => {
    const cache = new MemoryKeyValueStore()
    await embedder({ cache }).embed(passages.filter((_, i) => i % 2 === 0))
    const before = fake.requests.length
    const vectors = await embedder({ cache }).embed([...passages, passages[1]!])
    const sent = sentSince(before)
    expect(sent.map((input) => input.length)).toEqual([16, 16, 16, 2])
    expect(sent.flat()).toEqual(passages.filter((_, i) => i % 2 === 1))
    expect(vectors.at(-1)).toEqual(vectors[1])
  })

  it('caches a long text per token window, so an edit at its end re-sends only the last windows', async () => {
    const cache = new MemoryKeyValueStore()
    const long = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')
    const batching = { batchSize: 16, batchMaxTokens: 100, windowOverlap: 10 }
    let before = fake.requests.length
    await embedder({ cache }, {}, batching).embed([long])
    const windows = sentSince(before).flat()
    expect(windows.length).toBeGreaterThan(5)
    before = fake.requests.length
    const edited = `${long} and a few more words`
    const vector = (await embedder({ cache }, {}, batching).embed([edited]))[0]
    const resent = sentSince(before).flat()
    expect(resent.length).toBeGreaterThanOrEqual(1)
    expect(resent.length).toBeLessThanOrEqual(2)
    expect(resent.every((w) => !windows.includes(w))).toBe(true)
    expect(vector).toEqual((await embedder({}, {}, batching).embed([edited]))[0])
  })

  it('keys on provider, model and dimensions, not the API key or api_base; noCache bypasses it', async () => {
    const cache = new MemoryKeyValueStore()
    await embedder({ cache }).embed(['keyed'])
    let before = fake.requests.length
    await embedder({ cache }, { apiKey: 'another-key' }).embed(['keyed'])
    await embedder({ cache }, { apiBase: `http://localhost:${fake.port}/v1` }).embed(['keyed'])
    expect(fake.requests.length).toBe(before)
    for (const overrides of [
      { dimensions: 3 },
      { model: 'text-embedding-3-large' },
      { provider: 'azure' as const, apiBase: `http://127.0.0.1:${fake.port}`, apiVersion: '2024-10-21' },
    ]) {
      before = fake.requests.length
      await embedder({ cache }, overrides).embed(['keyed'])
      expect(fake.requests.length, JSON.stringify(overrides)).toBe(before + 1)
    }
    const entries = (await cache.keys()).length
    before = fake.requests.length
    await embedder({ cache }).embed(['keyed', 'not cached'], { noCache: true })
    expect(sentSince(before)).toEqual([['keyed', 'not cached']])
    expect(await cache.keys()).toHaveLength(entries)
  })

  it('keeps what a failing call already embedded, so the rerun sends only the rest', async () => {
    const cache = new MemoryKeyValueStore()
    const noRetry = { type: 'immediate' as const, maxRetries: 0, baseDelay: 0, jitter: false, maxDelay: undefined }
    const texts = passages.slice(0, 40)
    // One request at a time, so the seeded faults hit the same requests on every run.
    fake.setFaults({ rate: 0.3, kinds: ['500'], seed: 5 })
    const error = await embedder({ cache }, { retry: noRetry, concurrentRequests: 1 }, { batchSize: 4 })
      .embed(texts)
      .catch((e: unknown) => e)
    fake.setFaults(undefined)
    expect(error).toBeInstanceOf(LlmError)
    // Every batch ran to the end; with this seed three single texts failed for good and 37 were kept.
    const kept = (await cache.keys()).length
    expect(kept).toBe(37)
    const before = fake.requests.length
    const vectors = await embedder({ cache }, {}, { batchSize: 4 }).embed(texts)
    expect(sentSince(before).flat()).toHaveLength(texts.length - kept)
    expect(vectors).toEqual(await embedder({}).embed(texts))
  })
})
