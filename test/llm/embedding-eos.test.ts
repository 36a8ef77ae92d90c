/**
 * append_eos / eos_token (the Evolution RAG design's EMBEDDING_APPEND_EOS / EMBEDDING_EOS_TOKEN):
 * from the settings file to the texts the embedding server receives, the cache keys and the
 * identity that decides whether an update reuses a previous vector.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Settings } from '../../src/config/index.js'
import { validateSettings } from '../../src/config/validate.js'
import { embeddingIdentity } from '../../src/index/operations/reuse-embeddings.js'
import { createEmbeddingModel, modelOptionsFromSettings } from '../../src/llm/index.js'
import { MemoryKeyValueStore } from '../../src/storage/key-value-store.js'
import { fakeEmbedding, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'

const DIM = 6
let fake: FakeLlm
beforeAll(async () => {
  fake = await startFakeLlm({ embeddingDimension: DIM })
})
afterAll(() => fake.close())

function settingsWith(eos: Record<string, unknown>): Settings {
  const model = { model_provider: 'openai', model: 'text-embedding-3-small', api_key: 'k', api_base: fake.baseUrl }
  const result = validateSettings(
    {
      completion_models: { default_completion_model: { ...model, model: 'gpt-4.1' } },
      embedding_models: { default_embedding_model: { ...model, ...eos } },
    },
    { root: '/project' },
  )
  if (!result.ok) throw new Error(result.errors.join('\n'))
  return result.settings
}

function modelOf(settings: Settings, cache?: MemoryKeyValueStore) {
  const s = settings.embedding_models.default_embedding_model!
  const options = modelOptionsFromSettings('embedding_models', 'default_embedding_model', s, {
    concurrentRequests: 2,
    keyOrigin: undefined,
  })
  return createEmbeddingModel(options, cache === undefined ? {} : { cache })
}

async function sentInputs(settings: Settings, texts: string[], cache?: MemoryKeyValueStore) {
  const before = fake.requests.length
  const vectors = await modelOf(settings, cache).embed(texts)
  const inputs = fake.requests.slice(before).flatMap((r) => (r.body as { input: string[] }).input)
  return { vectors, inputs }
}

describe('embedding EOS append', () => {
  it('is off by default: texts go out as they are', async () => {
    const { inputs } = await sentInputs(settingsWith({}), ['Marley was dead'])
    expect(inputs).toEqual(['Marley was dead'])
  })

  it('appends eos_token to every non-empty text, and the vectors are those of the suffixed texts', async () => {
    const { vectors, inputs } = await sentInputs(settingsWith({ append_eos: true, eos_token: '</eos>' }), [
      'Marley was dead',
      '',
      'Scrooge',
    ])
    expect(inputs).toEqual(['Marley was dead</eos>', 'Scrooge</eos>'])
    expect(vectors).toEqual([fakeEmbedding('Marley was dead</eos>', DIM), [], fakeEmbedding('Scrooge</eos>', DIM)])
  })

  it('a blank eos_token means a newline', async () => {
    const { inputs } = await sentInputs(settingsWith({ append_eos: true }), ['Bob Cratchit'])
    expect(inputs).toEqual(['Bob Cratchit\n'])
  })

  it('does not share cached vectors with runs without it', async () => {
    const cache = new MemoryKeyValueStore()
    await sentInputs(settingsWith({}), ['Fezziwig'], cache)
    const plainAgain = await sentInputs(settingsWith({}), ['Fezziwig'], cache)
    expect(plainAgain.inputs).toEqual([])
    const suffixed = await sentInputs(
      settingsWith({ append_eos: true, eos_token: '<|endoftext|>' }),
      ['Fezziwig'],
      cache,
    )
    expect(suffixed.inputs).toEqual(['Fezziwig<|endoftext|>'])
  })

  it('changes the identity under which an update reuses previous vectors, and only when on', () => {
    const identity = (s: Settings) => embeddingIdentity(s.embedding_models.default_embedding_model!, 8191, DIM)
    const plain = identity(settingsWith({}))
    expect(identity(settingsWith({ eos_token: '</eos>' }))).toBe(plain)
    const on = identity(settingsWith({ append_eos: true, eos_token: '</eos>' }))
    expect(on).not.toBe(plain)
    expect(identity(settingsWith({ append_eos: true, eos_token: '</s>' }))).not.toBe(on)
  })

  it('rejects a non-boolean append_eos naming the key', () => {
    const result = validateSettings(
      { embedding_models: { e: { model_provider: 'openai', model: 'm', api_key: 'k', append_eos: 'yes' } } },
      { root: '/project' },
    )
    expect(result.ok ? [] : result.errors.join('\n')).toMatch(/embedding_models\.e\.append_eos/)
  })
})
