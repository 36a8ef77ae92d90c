import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '../../../src/config/load.js'
import { ConfigError } from '../../../src/errors.js'
import { embedTexts, embeddingTexts } from '../../../src/index/operations/embed-text.js'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import type { CommunityReportRow, EntityRow, TextUnitRow } from '../../../src/model/index.js'
import { MemoryKeyValueStore } from '../../../src/storage/key-value-store.js'
import { fakeEmbedding, fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { testdir } from '../../support/testdir.js'

const unit = (id: string, text: string): TextUnitRow => ({
  id,
  human_readable_id: 0,
  text,
  n_tokens: 1,
  document_id: 'd',
  entity_ids: [],
  relationship_ids: [],
  covariate_ids: [],
})
const entity = (id: string, title: string, description: string): EntityRow => ({
  id,
  human_readable_id: 0,
  title,
  type: 'PERSON',
  description,
  text_unit_ids: [],
  frequency: 1,
  degree: 1,
})

describe('embedding texts', () => {
  it('embeds unit text, title:description without a space, and report full_content', () => {
    expect(embeddingTexts({ name: 'text_unit_text', rows: [unit('t1', 'Marley was dead')] })).toEqual([
      { id: 't1', text: 'Marley was dead' },
    ])
    expect(
      embeddingTexts({
        name: 'entity_description',
        rows: [entity('e1', 'SCROOGE', 'A miser'), entity('e2', 'FRED', '')],
      }),
    ).toEqual([
      { id: 'e1', text: 'SCROOGE:A miser' },
      { id: 'e2', text: 'FRED:' },
    ])
    const report = { id: 'r1', full_content: '# Title\n\nSummary' } as CommunityReportRow
    expect(embeddingTexts({ name: 'community_full_content', rows: [report] })).toEqual([
      { id: 'r1', text: '# Title\n\nSummary' },
    ])
  })
})

describe('embedding through the model', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => llm.close())

  async function model() {
    const root = await testdir({ 'settings.yaml': fakeModelSettingsYaml(llm.baseUrl) })
    const { settings } = loadConfig({ root, env: {} })
    const registry = createModelRegistry(settings, { cache: new MemoryKeyValueStore(), log: SILENT_LOGGER })
    return registry
      .forWorkflow('generate_text_embeddings')
      .embedding('default_embedding_model', { keyPath: 'x', cachePartition: 'text_embedding' })
  }

  it('skips empty texts, keeps input order across flushes and reports progress', async () => {
    const texts = [
      { id: 'a', text: 'alpha' },
      { id: 'b', text: '' },
      { id: 'c', text: 'gamma' },
      { id: 'd', text: 'delta' },
    ]
    const ticks: number[] = []
    const options = {
      name: 'text_unit_text' as const,
      vectorSize: 8,
      vectorSizeKey: 'vector_store.vector_size',
      flushSize: 2,
    }
    const rows = await embedTexts(texts, options, { model: await model(), onEmbedded: (n) => ticks.push(n) })
    expect(rows.map((r) => r.id)).toEqual(['a', 'c', 'd'])
    rows.forEach((r) =>
      r.vector.forEach((v, i) =>
        expect(v).toBeCloseTo(fakeEmbedding(texts.find((t) => t.id === r.id)!.text, 8)[i]!, 6),
      ),
    )
    expect(ticks).toEqual([2, 1])
  })

  it('with float32, each vector is the float32 copy of the doubles it gets without', async () => {
    const texts = [
      { id: 'a', text: 'alpha' },
      { id: 'b', text: 'beta' },
    ]
    const options = { name: 'entity_description' as const, vectorSize: 8, vectorSizeKey: 'x', flushSize: 1 }
    const doubles = await embedTexts(texts, options, { model: await model() })
    const floats = await embedTexts(texts, { ...options, float32: true }, { model: await model() })
    expect(doubles.every((r) => Array.isArray(r.vector))).toBe(true)
    expect(floats.map((r) => r.id)).toEqual(['a', 'b'])
    floats.forEach((r, i) => {
      expect(r.vector).toBeInstanceOf(Float32Array)
      expect(r.vector).toEqual(Float32Array.from(doubles[i]!.vector))
    })
  })

  it('hands rows to `write` flush by flush in input order, one call at a time, and returns none', async () => {
    const texts = Array.from({ length: 9 }, (_, i) => ({ id: `t${i}`, text: `text number ${i}` }))
    const options = { name: 'text_unit_text' as const, vectorSize: 8, vectorSizeKey: 'x', flushSize: 2 }
    const batches: string[][] = []
    let writing = false
    const write = async (rows: Array<{ id: string }>) => {
      expect(writing).toBe(false)
      writing = true
      await new Promise((resolve) => setImmediate(resolve))
      batches.push(rows.map((r) => r.id))
      writing = false
    }
    const rows = await embedTexts(texts, options, { model: await model(), write })
    expect(rows).toEqual([])
    expect(batches).toEqual([['t0', 't1'], ['t2', 't3'], ['t4', 't5'], ['t6', 't7'], ['t8']])
  })

  it('fails fast with both dimensions when the model disagrees with vector_size', async () => {
    const options = {
      name: 'entity_description' as const,
      vectorSize: 16,
      vectorSizeKey: 'vector_store.vector_size',
      flushSize: 10,
    }
    const run = embedTexts([{ id: 'a', text: 'alpha' }], options, { model: await model() })
    await expect(run).rejects.toBeInstanceOf(ConfigError)
    await expect(run).rejects.toThrow(/dimension 8 .* is 16/)
  })
})
