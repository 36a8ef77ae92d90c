import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LlmError } from '../../src/errors.js'
import { createChatModel, createEmbeddingModel } from '../../src/llm/index.js'
import { cacheKey, canonicalJson } from '../../src/llm/cache.js'
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

  it('a hit makes zero HTTP calls; another model name, api_base or call parameter misses; the API key does not matter', async () => {
    const cache = new MemoryKeyValueStore()
    const meter = new UsageMeter(undefined)
    const first = await createChatModel(fakeOptions(fake), { cache, meter }).complete(ask('hello cache'))
    const before = fake.requests.length
    const again = await createChatModel(fakeOptions(fake, { apiKey: 'another-key' }), { cache, meter }).complete(ask('hello cache'))
    expect(fake.requests.length).toBe(before)
    expect(again).toEqual({ ...first, cached: true })
    expect(meter.snapshot()).toMatchObject({ calls: 2, cacheHits: 1 })
    await createChatModel(fakeOptions(fake, { model: 'gpt-4.1' }), { cache }).complete(ask('hello cache'))
    expect(fake.requests.length).toBe(before + 1)
    await createChatModel(fakeOptions(fake, { callArgs: { temperature: 0.5 } }), { cache }).complete(ask('hello cache'))
    expect(fake.requests.length).toBe(before + 2)
    await createChatModel(fakeOptions(fake, { apiBase: `http://localhost:${fake.port}/v1` }), { cache }).complete(ask('hello cache'))
    expect(fake.requests.length).toBe(before + 3)
    expect(await cache.keys()).toHaveLength(4)
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
    const format = { type: 'json_schema' as const, name: 'x', schema: { type: 'object', required: ['a'], properties: { a: { type: 'string' } } } }
    await expect(model.complete({ ...ask('invalid'), responseFormat: format })).rejects.toBeInstanceOf(LlmError)
    fake.setFaults(undefined)
    expect(await cache.keys()).toEqual([])
    await model.complete({ ...ask('uncached'), noCache: true })
    expect(await cache.keys()).toEqual([])
    const structured = await model.complete({ ...ask('structured'), responseFormat: format })
    expect((await model.complete({ ...ask('structured'), responseFormat: format })).json).toEqual(structured.json)
  })

  it('caches embedding batches', async () => {
    const cache = new MemoryKeyValueStore()
    const model = createEmbeddingModel({ ...fakeOptions(fake), model: 'text-embedding-3-small' }, { cache })
    const first = await model.embed(['a', 'b', 'c'])
    const before = fake.requests.length
    expect(await model.embed(['a', 'b', 'c'])).toEqual(first)
    expect(fake.requests.length).toBe(before)
  })

  it('keys on canonical JSON (object key order does not matter)', () => {
    expect(canonicalJson({ b: 1, a: [{ y: 2, x: 1 }], c: undefined })).toBe('{"a":[{"x":1,"y":2}],"b":1}')
    expect(cacheKey({ a: 1, b: 2 })).toBe(cacheKey({ b: 2, a: 1 }))
  })
})
