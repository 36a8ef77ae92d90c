/** Anthropic Message Batches and Gemini batch mode against fake servers: URL, headers, body, and the same replies as synchronous calls. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { batchApiFor } from '../../src/llm/batch/providers.js'
import { BatchQueue } from '../../src/llm/batch/queue.js'
import { BatchState } from '../../src/llm/batch/state.js'
import { createChatModel, type ModelOptions } from '../../src/llm/index.js'
import type { CompletionRequest } from '../../src/llm/types.js'
import { MemoryKeyValueStore } from '../../src/storage/key-value-store.js'
import { type FakeBatchProvider, startFakeBatchProvider } from '../support/fake-llm/batch-protocols.js'
import { fakeOptions, HELLO } from './helpers.js'

const TERSE: CompletionRequest = {
  messages: [{ role: 'system', content: 'You are terse.' }, ...HELLO],
  callArgs: { temperature: 0, max_tokens: 300 },
}
const JSON_ASK: CompletionRequest = {
  messages: [{ role: 'user', content: 'Give a JSON object with a "title" key about the harbour.' }],
  responseFormat: { type: 'json_object' },
}

function batchedModel(options: ModelOptions) {
  const api = batchApiFor(options)
  if (api === undefined) throw new Error(`${options.provider} has no batch API`)
  const state = new BatchState(new MemoryKeyValueStore(), 'batches/test')
  const queue = new BatchQueue({ api, state, modelRef: options.settingsPath, pollMs: 5, collectMs: 20, noWait: false })
  return createChatModel(options, { batch: { queue, fallback: false } })
}

/** Both requests batched together, and the same two asked synchronously of the protocol's fake. */
async function askBothWays(fake: FakeBatchProvider, options: ModelOptions) {
  const model = batchedModel(options)
  const batched = await Promise.all([model.complete(TERSE), model.complete(JSON_ASK)])
  const sync = createChatModel({ ...options, apiBase: fake.sync.baseUrl })
  return { batched, sync: [await sync.complete(TERSE), await sync.complete(JSON_ASK)] }
}

describe('Anthropic Message Batches', () => {
  let fake: FakeBatchProvider
  beforeAll(async () => {
    fake = await startFakeBatchProvider('anthropic', { pollsBeforeDone: 2 })
  })
  afterAll(() => fake.close())

  it('POSTs one batch to /v1/messages/batches with the key, version and Messages params; answers as the synchronous call does', async () => {
    const options = fakeOptions(fake.sync.inner, {
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
      apiKey: 'sk-ant-test',
      apiBase: fake.baseUrl,
    })
    const { batched, sync } = await askBothWays(fake, options)
    expect(batched.map((r) => r.content)).toEqual(sync.map((r) => r.content))
    expect(batched[1]!.json).toEqual(sync[1]!.json)
    expect(batched[0]!.usage).toEqual(sync[0]!.usage)

    const posts = fake.requests.filter((r) => r.method === 'POST')
    expect(posts).toHaveLength(1)
    const [create] = posts
    expect(create!.url).toBe('/v1/messages/batches')
    expect(create!.headers['x-api-key']).toBe('sk-ant-test')
    expect(create!.headers['anthropic-version']).toBe('2023-06-01')
    const requests = create!.body.requests as Array<{ custom_id: string; params: Record<string, unknown> }>
    expect(requests).toHaveLength(2)
    const request = requests.find((r) => r.params.system !== undefined)
    expect(request!.custom_id).toMatch(/^[0-9a-f]{64}$/)
    expect(request!.params).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 300,
      temperature: 0,
      system: 'You are terse.',
      messages: [{ role: 'user', content: [{ type: 'text', text: HELLO[0]!.content }] }],
    })
    const json = requests.find((r) => r !== request)!.params
    expect(JSON.stringify(json.messages)).toContain('Reply with one JSON object')
    expect(json.max_tokens).toBe(4096)
    const gets = fake.requests.filter((r) => r.method === 'GET').map((r) => r.url)
    expect(gets).toContain('/v1/messages/batches/msgbatch_0')
    expect(gets).toContain('/v1/messages/batches/msgbatch_0/results')
  })
})

describe('Gemini batch mode', () => {
  let fake: FakeBatchProvider
  beforeAll(async () => {
    fake = await startFakeBatchProvider('gemini', { pollsBeforeDone: 2 })
  })
  afterAll(() => fake.close())

  it('POSTs models/{model}:batchGenerateContent with the key and inlined GenerateContent requests; answers as the synchronous call does', async () => {
    const options = fakeOptions(fake.sync.inner, {
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      apiKey: 'gm-test',
      apiBase: fake.baseUrl,
    })
    const { batched, sync } = await askBothWays(fake, options)
    expect(batched.map((r) => r.content)).toEqual(sync.map((r) => r.content))
    expect(batched[1]!.json).toEqual(sync[1]!.json)
    expect(batched[0]!.usage).toEqual(sync[0]!.usage)

    const posts = fake.requests.filter((r) => r.method === 'POST')
    expect(posts).toHaveLength(1)
    const [create] = posts
    expect(create!.url).toBe('/v1beta/models/gemini-2.5-flash:batchGenerateContent')
    expect(create!.headers['x-goog-api-key']).toBe('gm-test')
    const batch = create!.body.batch as {
      input_config: { requests: { requests: Array<{ request: unknown; metadata: { key: string } }> } }
    }
    const lines = batch.input_config.requests.requests
    expect(lines).toHaveLength(2)
    const line = lines.find((l) => JSON.stringify(l.request).includes('You are terse.'))
    expect(line!.metadata.key).toMatch(/^[0-9a-f]{64}$/)
    expect(line!.request).toEqual({
      contents: [{ role: 'user', parts: [{ text: HELLO[0]!.content }] }],
      systemInstruction: { parts: [{ text: 'You are terse.' }] },
      generationConfig: { maxOutputTokens: 300, temperature: 0 },
    })
    const jsonLine = lines.find((l) => l !== line)!.request as { generationConfig: { responseMimeType?: string } }
    expect(jsonLine.generationConfig.responseMimeType).toBe('application/json')
    expect(fake.requests.filter((r) => r.method === 'GET').map((r) => r.url)).toContain('/v1beta/batches/b0')
  })

  it('Gemini embeddings stay synchronous (no batch API for them here)', () => {
    const options = fakeOptions(fake.sync.inner, {
      provider: 'gemini',
      model: 'gemini-embedding-001',
      settingsPath: 'embedding_models.default_embedding_model',
    })
    expect(batchApiFor(options)).toBeUndefined()
  })
})
