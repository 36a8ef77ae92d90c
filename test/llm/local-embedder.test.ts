import { describe, expect, it } from 'vitest'
import { createEmbeddingModel } from '../../src/llm/index.js'
import { localEmbedder } from '../../src/llm/local-embedder.js'
import { UsageMeter } from '../../src/llm/usage.js'

/** One text through the local transport at a given dimension. */
const hashEmbedding = async (text: string, dimension: number): Promise<number[]> =>
  (
    await localEmbedder(dimension).embed({
      input: [text],
      meter: new UsageMeter(undefined),
      noCache: false,
      signal: undefined,
    })
  ).vectors[0]!

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0)

describe('local hashing embedder', () => {
  const model = createEmbeddingModel(
    {
      id: 'default_embedding_model',
      settingsPath: 'embedding_models.default_embedding_model',
      provider: 'local',
      model: 'hashing-384',
      apiKey: undefined,
      apiBase: undefined,
      apiVersion: undefined,
      azureDeploymentName: undefined,
      callArgs: {},
      retry: { type: 'immediate', maxRetries: 0, baseDelay: 0, jitter: false, maxDelay: undefined },
      concurrentRequests: 1,
      rateLimit: undefined,
      requestTimeoutSeconds: 1,
      encodingModel: undefined,
      dimensions: undefined,
      pricing: undefined,
      keyOrigin: undefined,
    },
    { meter: new UsageMeter(undefined) },
  )

  it('is deterministic, 384-dimensional and L2-normalised', async () => {
    const [a, b] = await model.embed(['Scrooge counts his money', 'Scrooge counts his money'])
    expect(a).toHaveLength(384)
    expect(a).toEqual(b)
    expect(Math.hypot(...a!)).toBeCloseTo(1, 12)
    expect(await hashEmbedding('Scrooge counts his money', 384)).toEqual(a)
  })

  it('honours the configured dimension and gives empty texts an empty vector', async () => {
    expect(await hashEmbedding('x', 64)).toHaveLength(64)
    expect((await hashEmbedding('...', 64)).some((v) => v !== 0)).toBe(true)
  })

  it('is lexical: shared words score higher than unrelated text', async () => {
    const q = await hashEmbedding('the ghost of christmas past', 384)
    const near = await hashEmbedding('a ghost visits at christmas', 384)
    const far = await hashEmbedding('quarterly revenue rose sharply', 384)
    expect(cosine(q, near)).toBeGreaterThan(cosine(q, far) + 0.2)
  })

  it('returns [] for an empty text through the model', async () => {
    expect(await model.embed(['', 'a'])).toEqual([[], await hashEmbedding('a', 384)])
  })
})
