import { getEventListeners } from 'node:events'
import { inspect } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient, retryAfterMs } from '../../src/llm/client.js'
import { AttemptFailure } from '../../src/llm/failure.js'
import type { ChatCall } from '../../src/llm/transport.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { HELLO } from './helpers.js'

const count = (t: string) => Math.ceil(t.length / 4)

function client(fake: FakeLlm, overrides: Partial<Parameters<typeof createClient>[0]> = {}) {
  return createClient({
    provider: 'openai',
    model: 'gpt-4.1',
    apiKey: 'test-key',
    apiBase: fake.baseUrl,
    apiVersion: undefined,
    azureDeploymentName: undefined,
    timeoutMs: 10_000,
    dimensions: undefined,
    countTokens: count,
    ...overrides,
  })
}

function call(overrides: Partial<ChatCall> = {}): ChatCall {
  return {
    messages: HELLO,
    responseFormat: undefined,
    params: {},
    meter: new UsageMeter(undefined),
    noCache: false,
    signal: undefined,
    ...overrides,
  }
}

async function failure(promise: Promise<unknown>): Promise<AttemptFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(error).toBeInstanceOf(AttemptFailure)
  return error as AttemptFailure
}

describe('client (transport over the openai package)', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({
      embeddingDimension: 4,
      responders: [
        ({ messages }) => (messages[0]!.content === 'fenced' ? 'Sure!\n```json\n{"answer": 42,}\n```' : undefined),
      ],
    })
  })
  afterAll(() => fake.close())

  it('completes, counts usage into the meter and sends call parameters', async () => {
    const c = call({ params: { temperature: 0, max_tokens: 50 } })
    const reply = await client(fake).complete(c)
    expect(reply.content).toBe('Hello World')
    expect(c.meter.snapshot()).toMatchObject({ promptTokens: reply.usage.promptTokens, completionTokens: 2 })
    expect(fake.requests.at(-1)!.body).toMatchObject({ model: 'gpt-4.1', temperature: 0, max_tokens: 50 })
  })

  it('parses structured replies tolerantly and sends response_format', async () => {
    const format = {
      type: 'json_schema' as const,
      name: 'a',
      schema: { type: 'object', required: ['answer'], properties: { answer: { type: 'integer' } } },
    }
    const reply = await client(fake).complete(
      call({ messages: [{ role: 'user', content: 'fenced' }], responseFormat: format }),
    )
    expect(reply.json).toEqual({ answer: 42 })
    expect(fake.requests.at(-1)!.body).toMatchObject({
      response_format: { type: 'json_schema', json_schema: { name: 'a' } },
    })
  })

  it('streams deltas and counts streamed usage', async () => {
    const c = call()
    let text = ''
    for await (const delta of client(fake).stream(c)) text += delta
    expect(text).toBe('Hello World')
    expect(c.meter.snapshot().completionTokens).toBe(2)
    expect(fake.requests.at(-1)!.body).toMatchObject({ stream: true, stream_options: { include_usage: true } })
  })

  it('embeds with encoding_format base64', async () => {
    const reply = await client(fake).embed({
      input: ['a', 'b'],
      meter: new UsageMeter(undefined),
      noCache: false,
      signal: undefined,
    })
    expect(reply.vectors.map((v) => v.length)).toEqual([4, 4])
    expect(fake.requests.at(-1)!.body).toMatchObject({ encoding_format: 'base64' })
  })

  it('classifies failures: 401 (no key in the message), 429 with Retry-After, 500, timeout, truncated body', async () => {
    const auth = await failure(client(fake, { apiKey: 'bad-key' }).complete(call()))
    expect(auth).toMatchObject({ status: 401, retryable: false })
    expect(auth.message).not.toContain('bad-key')
    expect(inspect(auth, { depth: 10 })).not.toContain('bad-key')
    fake.setFaults({ rate: 1, kinds: ['429'], retryAfterSeconds: 1.5 })
    expect(await failure(client(fake).complete(call()))).toMatchObject({
      status: 429,
      retryable: true,
      retryAfterMs: 1500,
    })
    fake.setFaults({ rate: 1, kinds: ['500'] })
    expect(await failure(client(fake).complete(call()))).toMatchObject({ status: 500, retryable: true })
    fake.setFaults({ rate: 1, kinds: ['hang'] })
    expect(await failure(client(fake, { timeoutMs: 200 }).complete(call()))).toMatchObject({
      kind: 'timeout',
      retryable: true,
    })
    fake.setFaults({ rate: 1, kinds: ['truncated'] })
    expect(await failure(client(fake).complete(call()))).toMatchObject({ retryable: true })
    fake.setFaults({ rate: 1, kinds: ['malformed'] })
    expect(await failure(client(fake).complete(call()))).toMatchObject({ kind: 'invalid_reply', retryable: true })
    fake.setFaults(undefined)
    expect(
      await failure(client(fake, { apiBase: `http://127.0.0.1:${fake.port}/nowhere` }).complete(call())),
    ).toMatchObject({ status: 404, retryable: false })
  })

  it('reads retry-after-ms, seconds and HTTP dates', () => {
    expect(retryAfterMs(new Headers({ 'retry-after-ms': '250' }))).toBe(250)
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000)
    const date = retryAfterMs(new Headers({ 'retry-after': new Date(Date.now() + 3000).toUTCString() }))!
    expect(date).toBeGreaterThan(1000)
    expect(retryAfterMs(new Headers())).toBeUndefined()
  })

  it('talks to Azure deployment paths with api-version', async () => {
    const azure = client(fake, {
      provider: 'azure',
      apiBase: `http://127.0.0.1:${fake.port}`,
      apiVersion: '2024-10-21',
      azureDeploymentName: 'gpt41-prod',
    })
    expect((await azure.complete(call())).content).toBe('Hello World')
    expect(fake.requests.at(-1)).toMatchObject({
      path: '/openai/deployments/gpt41-prod/chat/completions',
      model: 'gpt41-prod',
    })
    const reply = await azure.embed({
      input: ['x'],
      meter: new UsageMeter(undefined),
      noCache: false,
      signal: undefined,
    })
    expect(reply.vectors[0]).toHaveLength(4)
    expect(fake.requests.at(-1)!.path).toBe('/openai/deployments/gpt41-prod/embeddings')
  })

  it('leaves no listener on a long-lived signal after each call, and still aborts through it', async () => {
    // The run hands every call one signal; a listener left per call made a long run quadratic.
    const run = new AbortController()
    const c = client(fake)
    for (let i = 0; i < 5; i++) await c.complete(call({ signal: run.signal }))
    for await (const _ of c.stream(call({ signal: run.signal }))) void _
    await c.embed({ input: ['x'], meter: new UsageMeter(undefined), noCache: false, signal: run.signal })
    expect(getEventListeners(run.signal, 'abort')).toHaveLength(0)

    const slow = await startFakeLlm({ latency: { fixedMs: 5_000 } })
    try {
      const pending = failure(client(slow).complete(call({ signal: run.signal })))
      await new Promise((resolve) => setTimeout(resolve, 50))
      run.abort(new Error('stop'))
      expect((await pending).kind).toBe('aborted')
      expect(getEventListeners(run.signal, 'abort')).toHaveLength(0)
    } finally {
      await slow.close()
    }
  })
})
