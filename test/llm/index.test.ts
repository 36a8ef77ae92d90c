import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ConfigError } from '../../src/errors.js'
import {
  createChatModel,
  createEmbeddingModel,
  createUsageMeter,
  modelOptionsFromSettings,
} from '../../src/llm/index.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { MemoryKeyValueStore } from '../../src/storage/key-value-store.js'
import { FaultPicker } from '../support/fake-llm/faults.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeOptions, HELLO } from './helpers.js'

describe('composed models', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 6 })
  })
  afterAll(() => fake.close())

  it('streams with usage counted, and is not cached', async () => {
    const meter = new UsageMeter(undefined)
    const model = createChatModel(fakeOptions(fake), { meter, cache: new MemoryKeyValueStore() })
    for (let round = 0; round < 2; round++) {
      let text = ''
      for await (const delta of model.stream({ messages: HELLO })) text += delta
      expect(text).toBe('Hello World')
    }
    expect(meter.snapshot()).toMatchObject({ calls: 2, cacheHits: 0, completionTokens: 4, failures: 0 })
    expect(meter.snapshot().promptTokens).toBeGreaterThan(10)
  })

  it('retries a stream that fails before its first delta', async () => {
    // A seed whose fault sequence is: fail, then succeed.
    const seed = Array.from({ length: 100 }, (_, i) => i + 1).find((candidate) => {
      const picker = new FaultPicker({ rate: 0.5, kinds: ['500'], seed: candidate })
      return picker.next() === '500' && picker.next() === undefined
    })!
    fake.setFaults({ rate: 0.5, kinds: ['500'], seed })
    const meter = new UsageMeter(undefined)
    let text = ''
    for await (const delta of createChatModel(fakeOptions(fake), { meter }).stream({ messages: HELLO })) text += delta
    fake.setFaults(undefined)
    expect(text).toBe('Hello World')
    expect(meter.snapshot()).toMatchObject({ calls: 1, retries: 1, failures: 0 })
  })

  it('stops at once when the caller aborts, without retrying', async () => {
    const slow = await startFakeLlm({ latency: { fixedMs: 2000 } })
    const meter = new UsageMeter(undefined)
    const controller = new AbortController()
    // Abort once the request has reached the server (the SDK loads on the first call, so a fixed
    // delay could abort before anything was sent).
    const waiting = setInterval(() => {
      if (slow.requests.some((r) => r.kind !== 'models')) controller.abort()
    }, 5)
    const error = await createChatModel(fakeOptions(slow), { meter })
      .complete({ messages: HELLO, signal: controller.signal })
      .catch((e: unknown) => e)
    clearInterval(waiting)
    // Returned before the server answered: the one request is still unanswered (status 0) when the error arrives.
    const statuses = slow.requests.filter((r) => r.kind !== 'models').map((r) => r.status)
    await slow.close()
    expect(error).toBeInstanceOf(Error)
    expect(statuses).toEqual([0])
    expect(meter.snapshot()).toMatchObject({ retries: 0, failures: 1 })
  })

  it('costs a priced model and reports an unpriced one as unknown rather than $0', async () => {
    const priced = fakeOptions(fake)
    const known = createUsageMeter(priced)
    await createChatModel(priced, { meter: known }).complete({ messages: HELLO })
    expect(known.snapshot().costUsd).toBeGreaterThan(0)
    expect(known.snapshot().unpricedTokens).toBe(0)
    const selfHosted = fakeOptions(fake, { model: 'llama3.1:8b' })
    const unknown = createUsageMeter(selfHosted)
    await createChatModel(selfHosted, { meter: unknown }).complete({ messages: HELLO })
    const usage = unknown.snapshot()
    expect(usage.costUsd).toBe(0)
    expect(usage.unpricedTokens).toBeGreaterThan(0)
    expect(usage.unpricedTokens).toBe(usage.promptTokens + usage.completionTokens)
  })

  it('works against Azure deployment paths', async () => {
    const azure = fakeOptions(fake, {
      provider: 'azure',
      apiBase: `http://127.0.0.1:${fake.port}`,
      apiVersion: '2024-10-21',
      azureDeploymentName: 'chat-dep',
    })
    expect((await createChatModel(azure).complete({ messages: HELLO })).content).toBe('Hello World')
    expect(fake.requests.at(-1)!.path).toBe('/openai/deployments/chat-dep/chat/completions')
    const vectors = await createEmbeddingModel({ ...azure, azureDeploymentName: 'emb-dep' }).embed(['a', 'b'])
    expect(vectors.map((v) => v.length)).toEqual([6, 6])
    expect(fake.requests.at(-1)!.path).toBe('/openai/deployments/emb-dep/embeddings')
  })

  it('merges call_args with per-request callArgs and returns json only for structured requests', async () => {
    const model = createChatModel(fakeOptions(fake, { callArgs: { temperature: 0, seed: 1 } }))
    const plain = await model.complete({ messages: HELLO, callArgs: { temperature: 0.7 } })
    expect('json' in plain).toBe(false)
    expect(fake.requests.at(-1)!.body).toMatchObject({ temperature: 0.7, seed: 1 })
    const structured = await model.complete({
      messages: [{ role: 'user', content: 'x' }],
      responseFormat: { type: 'json_object' },
    })
    expect(structured.json).toEqual({})
  })

  it('refuses a local chat model and maps snake_case settings', () => {
    expect(() => createChatModel(fakeOptions(fake, { provider: 'local' }))).toThrow(ConfigError)
    const options = modelOptionsFromSettings(
      'completion_models',
      'm',
      {
        model_provider: 'openai',
        model: 'gpt-4.1',
        api_key: 'k',
        api_base: null,
        api_version: null,
        azure_deployment_name: null,
        call_args: { temperature: 0 },
        retry: null,
        rate_limit: { period_in_seconds: 60, requests_per_period: null, tokens_per_period: 1000 },
        concurrent_requests: null,
        request_timeout: 30,
        encoding_model: null,
        dimensions: null,
        pricing: { input_per_1m: 1, output_per_1m: 2 },
      },
      { concurrentRequests: 25, keyOrigin: 'environment variable GRAPHRAG_API_KEY' },
    )
    expect(options).toMatchObject({
      settingsPath: 'completion_models.m',
      concurrentRequests: 25,
      apiBase: undefined,
      retry: { type: 'exponential_backoff', maxRetries: 7 },
      rateLimit: { periodSeconds: 60, requestsPerPeriod: undefined, tokensPerPeriod: 1000 },
      pricing: { inputPer1m: 1, outputPer1m: 2 },
      requestTimeoutSeconds: 30,
    })
  })
})
