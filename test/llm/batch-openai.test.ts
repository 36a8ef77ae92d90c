/** The OpenAI and Azure OpenAI Batch API client against the fake server: URLs, headers, bodies, results. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openAiBatchApi } from '../../src/llm/batch/openai.js'
import type { BatchLine } from '../../src/llm/batch/types.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'

const chat = (key: string, model: string, text: string): BatchLine => ({
  key,
  kind: 'chat',
  body: { model, messages: [{ role: 'user', content: text }] },
})

describe('openAiBatchApi', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 4, batch: { pollsBeforeDone: 2 } })
  })
  afterAll(async () => {
    await fake?.close()
  })

  it('OpenAI: uploads the JSONL, creates a 24 h batch on /v1/chat/completions, polls and reads the output file', async () => {
    const api = openAiBatchApi({ provider: 'openai', apiBase: fake.baseUrl, apiKey: 'sk-batch', apiVersion: undefined })
    const calls = fake.batchApi.calls.length
    const id = await api.submit([chat('k1', 'gpt-4.1-mini', 'Say hello'), chat('k2', 'gpt-4.1-mini', 'Say bye')])
    const [upload, create] = fake.batchApi.calls.slice(calls)
    expect([upload!.method, upload!.path, create!.method, create!.path]).toEqual([
      'POST',
      '/v1/files',
      'POST',
      '/v1/batches',
    ])
    expect(upload!.headers.authorization).toBe('Bearer sk-batch')
    expect(upload!.body).toMatch(/name="purpose"\r\n\r\nbatch\r\n/)
    const jsonl = upload!.body.split('\n').filter((l) => l.startsWith('{"custom_id"'))
    expect(jsonl.map((l) => JSON.parse(l))).toEqual([
      {
        custom_id: 'k1',
        method: 'POST',
        url: '/v1/chat/completions',
        body: chat('k1', 'gpt-4.1-mini', 'Say hello').body,
      },
      {
        custom_id: 'k2',
        method: 'POST',
        url: '/v1/chat/completions',
        body: chat('k2', 'gpt-4.1-mini', 'Say bye').body,
      },
    ])
    expect(JSON.parse(create!.body)).toEqual({
      input_file_id: expect.stringMatching(/^file-/),
      endpoint: '/v1/chat/completions',
      completion_window: '24h',
    })
    expect(await api.status(id)).toBe('pending')
    expect(await api.status(id)).toBe('completed')
    const results = await api.results(id)
    expect([...results.keys()].sort()).toEqual(['k1', 'k2'])
    const k1 = results.get('k1')
    expect(
      k1?.ok && (k1.body as { choices: Array<{ message: { content: string } }> }).choices[0]!.message.content,
    ).toEqual(expect.any(String))
    expect(fake.requests.filter((r) => r.batchLine === id)).toHaveLength(2)
  })

  it('Azure: /openai/files and /openai/batches with api-version and the api-key header; lines name the deployment', async () => {
    const apiBase = fake.baseUrl.replace(/\/v1$/, '')
    const api = openAiBatchApi({ provider: 'azure', apiBase, apiKey: 'azure-key', apiVersion: '2024-10-21' })
    const calls = fake.batchApi.calls.length
    const id = await api.submit([chat('a1', 'my-batch-deployment', 'Say hello')])
    const [upload, create] = fake.batchApi.calls.slice(calls)
    expect([upload!.path, upload!.search, create!.path, create!.search]).toEqual([
      '/openai/files',
      '?api-version=2024-10-21',
      '/openai/batches',
      '?api-version=2024-10-21',
    ])
    expect(upload!.headers['api-key']).toBe('azure-key')
    expect(upload!.headers.authorization).toBeUndefined()
    expect(upload!.body).toContain('"url":"/chat/completions","body":{"model":"my-batch-deployment"')
    expect(JSON.parse(create!.body).endpoint).toBe('/chat/completions')
    while ((await api.status(id)) === 'pending');
    expect(fake.batchApi.calls.at(-1)!.path).toBe(`/openai/batches/${id}`)
    expect((await api.results(id)).get('a1')?.ok).toBe(true)
  })

  it('a line the provider refused comes back as a failed result with its status; an expired line is retryable', async () => {
    const expiring = await startFakeLlm({ batch: { outcome: () => ({ status: 'expired', answered: 1 }) } })
    try {
      const api = openAiBatchApi({
        provider: 'openai',
        apiBase: expiring.baseUrl,
        apiKey: 'bad-key-1',
        apiVersion: undefined,
      })
      const id = await api.submit([chat('x1', 'gpt-4.1-mini', 'one'), chat('x2', 'gpt-4.1-mini', 'two')])
      expect(await api.status(id)).toBe('expired')
      const results = await api.results(id)
      // The fake refuses the key of the answered line (401) and never reached the other one.
      expect(results.get('x1')).toEqual({
        ok: false,
        status: 401,
        message: expect.stringMatching(/^HTTP 401/),
        retryable: false,
      })
      expect(JSON.stringify(results.get('x1'))).not.toContain('bad-key')
      expect(results.get('x2')).toEqual({ ok: false, status: undefined, message: expect.any(String), retryable: true })
    } finally {
      await expiring.close()
    }
  })
})
