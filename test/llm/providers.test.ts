/**
 * One test per provider family, against a local server speaking that provider's protocol: the URL,
 * headers, auth and body of a chat call and (where the provider has them) an embedding call, JSON
 * replies for providers without JSON mode, and no key in any error.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createChatModel, createEmbeddingModel } from '../../src/llm/index.js'
import { providerInfo, resolveProvider } from '../../src/llm/providers.js'
import { safeUrl } from '../../src/llm/safe-url.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { startFakeProvider, type FakeProvider } from '../support/fake-llm/protocols.js'
import { fakeOptions, HELLO } from './helpers.js'
import { snapshotEnv } from '../support/env-snapshot.js'

const JSON_ASK = [{ role: 'user' as const, content: 'Rate this: {"rating": n}' }]

async function errorOf(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(Error)
  return error as Error
}

describe('provider names and ids', () => {
  it('resolves LiteLLM provider/model ids and keeps other slashes', () => {
    expect(resolveProvider('openai', 'anthropic/claude-sonnet-4-5', false)).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-5',
    })
    expect(resolveProvider('anthropic', 'anthropic/claude-sonnet-4-5', false).model).toBe('claude-sonnet-4-5')
    expect(resolveProvider('openrouter', 'anthropic/claude-3.5', false)).toEqual({
      provider: 'openrouter',
      model: 'anthropic/claude-3.5',
    })
    // An explicit api_base means an OpenAI-compatible server whose model names may hold slashes.
    expect(resolveProvider('openai', 'meta-llama/Llama-3-8B', true).provider).toBe('openai')
  })

  it('knows default endpoints and key variables of the OpenAI-compatible providers', () => {
    expect(providerInfo('groq')).toMatchObject({
      defaultApiBase: 'https://api.groq.com/openai/v1',
      keyVariable: 'GROQ_API_KEY',
    })
    expect(providerInfo('ollama')).toMatchObject({ defaultApiBase: 'http://localhost:11434/v1', keyless: true })
    expect(providerInfo('anthropic')).toMatchObject({ keyVariable: 'ANTHROPIC_API_KEY', embeddings: false })
    expect(providerInfo('hosted_vllm').defaultApiBase).toBeUndefined()
  })

  it('shows URLs without credentials or query', () => {
    expect(safeUrl('https://user:s3cret@host.example/v1?key=abc')).toBe('https://host.example/v1')
  })
})

describe('OpenAI-compatible providers and Azure (openai package)', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 4 })
  })
  afterAll(() => fake.close())
  afterEach(() => {
    fake.requests.length = 0
  })

  it('groq: bearer key, /chat/completions, response_format sent', async () => {
    const model = createChatModel(fakeOptions(fake, { provider: 'groq', model: 'llama-3.3-70b', apiKey: 'gsk-test' }))
    const reply = await model.complete({ messages: JSON_ASK, responseFormat: { type: 'json_object' } })
    expect(reply.json).toBeTypeOf('object')
    const [req] = fake.requests
    expect(req!.path).toBe('/v1/chat/completions')
    expect(req!.headers.authorization).toBe('Bearer gsk-test')
    expect(req!.body).toMatchObject({ model: 'llama-3.3-70b', response_format: { type: 'json_object' } })
  })

  it('perplexity (no json_object): the instruction goes in the prompt, the reply is validated', async () => {
    const model = createChatModel(fakeOptions(fake, { provider: 'perplexity', model: 'sonar', apiKey: 'pplx-test' }))
    await model.complete({ messages: JSON_ASK, responseFormat: { type: 'json_object', required: ['rating'] } })
    const body = fake.requests[0]!.body as { response_format?: unknown; messages: Array<{ content: string }> }
    expect(body.response_format).toBeUndefined()
    expect(body.messages.at(-1)!.content).toMatch(/Reply with one JSON object with the keys "rating"/)
  })

  it('ollama: keyless chat and embeddings at its /v1', async () => {
    const chat = createChatModel(fakeOptions(fake, { provider: 'ollama', model: 'llama3.2', apiKey: undefined }))
    expect((await chat.complete({ messages: HELLO })).content).not.toBe('')
    const embedder = createEmbeddingModel(
      fakeOptions(fake, { provider: 'ollama', model: 'nomic-embed-text', apiKey: undefined }),
    )
    expect((await embedder.embed(['a text']))[0]).toHaveLength(4)
    expect(fake.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/embeddings'])
  })

  it('azure with a key: deployment path, api-version, api-key header', async () => {
    const root = fake.baseUrl.replace(/\/v1$/, '')
    const opts = fakeOptions(fake, {
      provider: 'azure',
      model: 'gpt-4.1',
      apiBase: root,
      apiKey: 'azure-key-1',
      apiVersion: '2024-10-21',
      azureDeploymentName: 'my-deploy',
    })
    await createChatModel(opts).complete({ messages: HELLO })
    await createEmbeddingModel({ ...opts, azureDeploymentName: 'my-embed' }).embed(['x'])
    const [chat, embed] = fake.requests
    expect(chat!.path).toBe('/openai/deployments/my-deploy/chat/completions')
    expect(chat!.search).toBe('?api-version=2024-10-21')
    expect(chat!.headers['api-key']).toBe('azure-key-1')
    expect(chat!.headers.authorization).toBeUndefined()
    expect(embed!.path).toBe('/openai/deployments/my-embed/embeddings')
  })
})

describe('Anthropic (Messages API via @ai-sdk/anthropic)', () => {
  let fake: FakeProvider
  beforeAll(async () => {
    fake = await startFakeProvider('anthropic')
  })
  afterAll(() => fake.close())
  afterEach(() => {
    fake.requests.length = 0
  })

  const options = (apiKey = 'sk-ant-test') =>
    fakeOptions(fake.inner, { provider: 'anthropic', model: 'claude-sonnet-4-5', apiKey, apiBase: fake.baseUrl })

  it('sends x-api-key, anthropic-version, system and messages to /v1/messages', async () => {
    const model = createChatModel(options())
    const reply = await model.complete({
      messages: [{ role: 'system', content: 'You are terse.' }, ...HELLO],
      callArgs: { temperature: 0, max_tokens: 300 },
    })
    expect(reply.content).not.toBe('')
    expect(reply.usage.promptTokens).toBeGreaterThan(0)
    const [req] = fake.requests
    expect(req!.method).toBe('POST')
    expect(req!.url).toBe('/v1/messages')
    expect(req!.headers['x-api-key']).toBe('sk-ant-test')
    expect(req!.headers['anthropic-version']).toBeDefined()
    expect(req!.body).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 300, temperature: 0 })
    expect(JSON.stringify(req!.body.system)).toContain('You are terse.')
    expect((req!.body.messages as unknown[]).length).toBe(1)
  })

  it('asks for JSON in the prompt and validates the reply; streams', async () => {
    const model = createChatModel(options())
    const reply = await model.complete({ messages: JSON_ASK, responseFormat: { type: 'json_object' } })
    expect(reply.json).toBeTypeOf('object')
    expect(JSON.stringify(fake.requests[0]!.body.messages)).toContain('Reply with one JSON object')
    let streamed = ''
    for await (const piece of model.stream({ messages: HELLO })) streamed += piece
    expect(streamed).not.toBe('')
    expect(fake.requests[1]!.body.stream).toBe(true)
  })

  it('never shows the key of a rejected request', async () => {
    const key = 'bad-key-sk-ant-0123456789abcdef'
    const error = await errorOf(createChatModel(options(key)).complete({ messages: HELLO }))
    expect(error.message).toContain('401')
    expect(JSON.stringify({ m: error.message, s: error.stack, c: String(error.cause) })).not.toContain(key)
  })

  it('refuses embeddings with a clear message', async () => {
    const error = await errorOf(createEmbeddingModel(options()).embed(['x']))
    expect(error.message).toMatch(/no embedding models/)
  })
})

describe('Gemini (generateContent / embedContent via @ai-sdk/google)', () => {
  let fake: FakeProvider
  beforeAll(async () => {
    fake = await startFakeProvider('gemini', { embeddingDimension: 8 })
  })
  afterAll(() => fake.close())
  afterEach(() => {
    fake.requests.length = 0
  })

  it('chat: x-goog-api-key, model path, systemInstruction, JSON mime type', async () => {
    const opts = fakeOptions(fake.inner, {
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      apiKey: 'AIza-test',
      apiBase: fake.baseUrl,
    })
    const model = createChatModel(opts)
    const reply = await model.complete({
      messages: [{ role: 'system', content: 'Be brief.' }, ...JSON_ASK],
      responseFormat: { type: 'json_object' },
    })
    expect(reply.json).toBeTypeOf('object')
    const [req] = fake.requests
    expect(req!.url).toBe('/v1beta/models/gemini-2.5-flash:generateContent')
    expect(req!.headers['x-goog-api-key']).toBe('AIza-test')
    expect(JSON.stringify(req!.body.systemInstruction)).toContain('Be brief.')
    expect(req!.body.generationConfig).toMatchObject({ responseMimeType: 'application/json' })
    let streamed = ''
    for await (const piece of model.stream({ messages: HELLO })) streamed += piece
    expect(streamed).not.toBe('')
    expect(fake.requests[1]!.url).toBe('/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse')
  })

  it('embeddings: batchEmbedContents with the requested dimension', async () => {
    const opts = fakeOptions(fake.inner, {
      provider: 'gemini',
      model: 'gemini-embedding-001',
      apiKey: 'AIza-test',
      apiBase: fake.baseUrl,
      dimensions: 8,
    })
    const vectors = await createEmbeddingModel(opts).embed(['one', 'two'])
    expect(vectors.map((v) => v.length)).toEqual([8, 8])
    const [req] = fake.requests
    expect(req!.url).toBe('/v1beta/models/gemini-embedding-001:batchEmbedContents')
    expect(req!.headers['x-goog-api-key']).toBe('AIza-test')
    expect(JSON.stringify(req!.body)).toContain('"outputDimensionality":8')
  })
})

describe('Bedrock (Converse / InvokeModel, SigV4 via @ai-sdk/amazon-bedrock)', () => {
  let fake: FakeProvider
  const restoreEnv = snapshotEnv()
  beforeAll(async () => {
    fake = await startFakeProvider('bedrock', { embeddingDimension: 8 })
    process.env.AWS_ACCESS_KEY_ID = 'AKIDFAKEEXAMPLE'
    process.env.AWS_SECRET_ACCESS_KEY = 'fake-secret-access-key-0123456789'
    process.env.AWS_REGION_NAME = 'eu-west-1'
  })
  afterAll(async () => {
    restoreEnv()
    await fake.close()
  })

  it('signs Converse and InvokeModel calls with SigV4 for the region', async () => {
    const chat = createChatModel(
      fakeOptions(fake.inner, {
        provider: 'bedrock',
        model: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
        apiKey: undefined,
        apiBase: fake.baseUrl,
      }),
    )
    const reply = await chat.complete({ messages: JSON_ASK, responseFormat: { type: 'json_object' } })
    expect(reply.json).toBeTypeOf('object')
    const embedder = createEmbeddingModel(
      fakeOptions(fake.inner, {
        provider: 'bedrock',
        model: 'amazon.titan-embed-text-v2:0',
        apiKey: undefined,
        apiBase: fake.baseUrl,
      }),
    )
    // Titan takes one text per request: two texts, two signed requests.
    expect((await embedder.embed(['one', 'two'])).map((v) => v.length)).toEqual([8, 8])
    const [converse, ...invokes] = fake.requests
    expect(converse!.url).toBe('/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse')
    expect(converse!.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIDFAKEEXAMPLE\/\d{8}\/eu-west-1\/bedrock\/aws4_request, SignedHeaders=.+, Signature=[0-9a-f]{64}$/,
    )
    expect(converse!.headers['x-amz-date']).toMatch(/^\d{8}T\d{6}Z$/)
    expect(JSON.stringify(converse!.body.messages)).toContain('Reply with one JSON object')
    expect(invokes.map((r) => r.url)).toEqual([
      '/model/amazon.titan-embed-text-v2%3A0/invoke',
      '/model/amazon.titan-embed-text-v2%3A0/invoke',
    ])
    for (const r of fake.requests) expect(JSON.stringify(r.headers)).not.toContain('fake-secret-access-key')
  })
})
