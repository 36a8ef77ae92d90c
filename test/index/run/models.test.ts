import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/load.js'
import { ConfigError, LlmError } from '../../../src/errors.js'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { MemoryKeyValueStore } from '../../../src/storage/key-value-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { testdir } from '../../support/testdir.js'

const HELLO = { messages: [{ role: 'user' as const, content: 'This is an LLM connectivity test. Say Hello World' }] }
const opts = (cachePartition: string) => ({ keyPath: 'extract_graph.completion_model_id', cachePartition })

describe('model registry', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 4, latency: { fixedMs: 30 } })
  })
  afterAll(() => fake.close())

  async function load(extra = '', env: Record<string, string> = {}) {
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl, { apiKey: '${GRAPHRAG_API_KEY}' })}${extra}`,
    })
    return loadConfig({ root, env: { GRAPHRAG_API_KEY: 'test-key', ...env } })
  }

  it('names the key path and the configured ids for an unknown model id', async () => {
    const { settings } = await load()
    const provider = createModelRegistry(settings, {
      cache: new MemoryKeyValueStore(),
      log: SILENT_LOGGER,
    }).forWorkflow('extract_graph')
    let error: unknown
    try {
      provider.chat('gpt-missing', opts('extract_graph'))
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigError)
    expect(error).toMatchObject({ keyPath: 'extract_graph.completion_model_id' })
    expect((error as Error).message).toContain('default_completion_model')
    expect(provider.hasChat('default_completion_model')).toBe(true)
    expect(provider.hasChat('gpt-missing')).toBe(false)
    expect(provider.hasChat(null)).toBe(false)
  })

  it('shares one limiter per model across workflows (concurrent_requests falls back to the top level) and counts usage per workflow', async () => {
    const { settings } = await load('concurrent_requests: 2\n')
    const registry = createModelRegistry(settings, { cache: new MemoryKeyValueStore(), log: SILENT_LOGGER })
    const a = registry.forWorkflow('extract_graph').chat('default_completion_model', opts('extract_graph'))
    const b = registry
      .forWorkflow('create_community_reports')
      .chat('default_completion_model', opts('community_reporting'))
    const before = fake.requests.length
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (i % 2 === 0 ? a : b).complete({ messages: [{ role: 'user', content: `q${i}` }] }),
      ),
    )
    const requests = fake.requests.slice(before)
    const peak = Math.max(
      ...requests.map((r) => requests.filter((o) => o.startedAt <= r.startedAt && o.endedAt > r.startedAt).length),
    )
    expect(peak).toBeLessThanOrEqual(2)
    const usage = registry.usageByWorkflow()
    expect(usage.extract_graph!.default_completion_model).toMatchObject({ calls: 3, cacheHits: 0 })
    expect(usage.create_community_reports!.default_completion_model!.calls).toBe(3)
    expect(usage.extract_graph!.default_completion_model!.costUsd).toBeGreaterThan(0)
  })

  it('uses the cache partition, and --no-cache turns the cache off', async () => {
    const { settings } = await load()
    const cache = new MemoryKeyValueStore()
    const model = createModelRegistry(settings, { cache, log: SILENT_LOGGER })
      .forWorkflow('w')
      .chat('default_completion_model', opts('extract_graph'))
    await model.complete(HELLO)
    expect(await cache.child('extract_graph').keys()).toHaveLength(1)
    const uncached = createModelRegistry(settings, { cache, log: SILENT_LOGGER, noCache: true })
      .forWorkflow('w')
      .chat('default_completion_model', opts('extract_graph'))
    expect((await uncached.complete(HELLO)).cached).toBe(false)
  })

  it('preflight passes against a working server and calls every model uncached', async () => {
    const { settings } = await load('vector_store:\n  vector_size: 4\n')
    const before = fake.requests.length
    await createModelRegistry(settings, { cache: new MemoryKeyValueStore(), log: SILENT_LOGGER }).preflight()
    const kinds = fake.requests
      .slice(before)
      .map((r) => r.kind)
      .sort()
    expect(kinds).toEqual(['embedding', 'preflight'])
  })

  it('preflight fails fast when the embedding dimension differs from vector_size, naming both', async () => {
    const { settings } = await load('vector_store:\n  vector_size: 3072\n')
    const error = await createModelRegistry(settings, { cache: new MemoryKeyValueStore(), log: SILENT_LOGGER })
      .preflight({ chat: [], embedding: ['default_embedding_model'] })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ConfigError)
    expect(error).toMatchObject({ keyPath: 'vector_store.vector_size' })
    expect((error as Error).message).toMatch(/dimension 4\b.*3072/)
  })

  it('preflight names the failing model and the cause, without the key', async () => {
    const loaded = await load('', { GRAPHRAG_API_KEY: 'bad-key' })
    const registry = createModelRegistry(loaded.settings, {
      cache: new MemoryKeyValueStore(),
      log: SILENT_LOGGER,
      apiKeyOrigins: loaded.apiKeyOrigins,
    })
    const error = (await registry
      .preflight({ chat: ['default_completion_model'], embedding: [] })
      .catch((e: unknown) => e)) as LlmError
    expect(error).toBeInstanceOf(LlmError)
    expect(error.message).toContain('completion_models.default_completion_model')
    expect(error.message).toContain('HTTP 401')
    expect(error.message).toContain('environment variable GRAPHRAG_API_KEY')
    expect(error.message).not.toContain('bad-key')
  })
})
