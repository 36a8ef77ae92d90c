// Embedding vectors on the wire: asked for as base64 float32, read the same whatever format the server
// answers in, and asked for in JSON floats from a server that refuses base64.
import { afterEach, describe, expect, it } from 'vitest'
import { createClient, embedReplyFrom, vectorFromWire } from '../../src/llm/client.js'
import type { EmbedCall } from '../../src/llm/transport.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { fakeEmbedding, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'

const count = (t: string) => Math.ceil(t.length / 4)
let fake: FakeLlm | undefined
afterEach(() => fake?.close())

function embedCall(input: string[]): EmbedCall {
  return { input, meter: new UsageMeter(undefined), noCache: false, signal: undefined }
}

function client(baseUrl: string) {
  return createClient({
    provider: 'openai',
    model: 'text-embedding-3-small',
    apiKey: 'test-key',
    apiBase: baseUrl,
    apiVersion: undefined,
    azureDeploymentName: undefined,
    timeoutMs: 10_000,
    dimensions: undefined,
    countTokens: count,
  })
}

const base64Of = (values: number[]) => Buffer.from(new Float32Array(values).buffer).toString('base64')

describe('embedding vectors on the wire', () => {
  it('reads little-endian float32 base64 and passes JSON arrays through', () => {
    expect(vectorFromWire(base64Of([0.5, -1.25, 3]))).toEqual([0.5, -1.25, 3])
    expect(vectorFromWire([0.1, 0.2])).toEqual([0.1, 0.2])
    // A length that is no whole number of float32 values is no vector (checkedEmbedding refuses it).
    expect(vectorFromWire('AAAAAAA=')).toEqual([])
    const body = {
      data: [
        { index: 1, embedding: [0.25, 0.5] },
        { index: 0, embedding: base64Of([1, 2]) },
      ],
      usage: { prompt_tokens: 7 },
    }
    expect(embedReplyFrom(body, embedCall(['a', 'b']), count).vectors).toEqual([
      [1, 2],
      [0.25, 0.5],
    ])
    expect(() => embedReplyFrom({ data: [{ index: 0, embedding: '' }] }, embedCall(['a']), count)).toThrow(
      /1 vectors for 1 inputs/,
    )
  })

  it('asks for base64 and gets the vectors the server meant, exactly', async () => {
    fake = await startFakeLlm({ embeddingDimension: 16 })
    const reply = await client(fake.baseUrl).embed(embedCall(['alpha', 'beta']))
    expect(reply.vectors).toEqual([fakeEmbedding('alpha', 16), fakeEmbedding('beta', 16)])
    expect(fake.requests.map((r) => (r.body as { encoding_format?: string }).encoding_format)).toEqual(['base64'])
  })

  it('falls back to floats for good when a server refuses base64', async () => {
    fake = await startFakeLlm({ embeddingDimension: 16, floatEmbeddingsOnly: true })
    const c = client(fake.baseUrl)
    const first = await c.embed(embedCall(['alpha']))
    const second = await c.embed(embedCall(['beta']))
    expect([...first.vectors, ...second.vectors]).toEqual([fakeEmbedding('alpha', 16), fakeEmbedding('beta', 16)])
    const formats = fake.requests.map((r) => `${(r.body as { encoding_format?: string }).encoding_format} ${r.status}`)
    expect(formats).toEqual(['base64 400', 'float 200', 'float 200'])
  })

  it('does not take any 400 for a refusal of base64', async () => {
    fake = await startFakeLlm({
      embeddingDimension: 16,
      maxEmbeddingInputs: 1,
      overCapacityReply: { status: 400, message: 'too many inputs' },
    })
    await expect(client(fake.baseUrl).embed(embedCall(['a', 'b']))).rejects.toMatchObject({ status: 400 })
    expect(fake.requests).toHaveLength(1)
  })
})
