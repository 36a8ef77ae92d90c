import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ConfigError } from '../../../src/errors.js'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { generateTextEmbeddings } from '../../../src/index/workflows/generate_text_embeddings.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import {
  COMMUNITY_REPORTS,
  DOCUMENTS,
  EMBEDDING_NAMES,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
  embeddingSnapshotTable,
} from '../../../src/model/index.js'
import { openVectorStore } from '../../../src/storage/vector-store.js'
import { duckDescribe } from '../../support/duckdb.js'
import { fakeEmbedding, fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../../support/shared.js'
import { createTestContext } from '../../support/workflow-context.js'
import { testdir } from '../../support/testdir.js'

describeShared('generate_text_embeddings into LanceDB', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 64 })
  })
  afterAll(async () => llm.close())

  async function context(options: { root?: string; yaml?: string; tables?: string[] } = {}) {
    const ref = sharedPath('reference', 'christmas-carol-index')
    const tables = options.tables ?? ['text_units', 'entities', 'community_reports']
    const files = Object.fromEntries(
      tables.map((n) => [`output/${n}.parquet`, readFileSync(join(ref, `${n}.parquet`))]),
    )
    const settingsYaml =
      fakeModelSettingsYaml(llm.baseUrl) +
      (options.yaml ?? 'vector_store:\n  vector_size: 64\nsnapshots:\n  embeddings: true\n')
    const root = options.root ?? (await testdir({ 'settings.yaml': settingsYaml, ...files }))
    return createTestContext({
      root,
      models: (settings, cache) =>
        createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow(generateTextEmbeddings.name),
    })
  }

  it('writes three tables that reopen and answer nearest-neighbour searches; a rerun adds no rows and no calls', async () => {
    const t = await context()
    await generateTextEmbeddings.run(t.ctx)
    const units = await t.tables.read(TEXT_UNITS)
    const entities = await t.tables.read(ENTITIES)
    const reports = await t.tables.read(COMMUNITY_REPORTS)
    expect(units.length).toBe(42)

    const check = async () => {
      const store = await openVectorStore(t.settings.vector_store.db_uri)
      expect((await store.tableNames()).sort()).toEqual([
        'community_full_content',
        'entity_description',
        'text_unit_text',
      ])
      expect((await store.vectorsById('text_unit_text')).size).toBe(units.length)
      expect((await store.vectorsById('entity_description')).size).toBe(entities.length)
      expect((await store.vectorsById('community_full_content')).size).toBe(reports.length)
      const scrooge = entities.find((e) => e.title === 'SCROOGE')!
      const hits = await store.search(
        'entity_description',
        fakeEmbedding(`${scrooge.title}:${scrooge.description}`, 64),
        3,
      )
      expect(hits[0]!.id).toBe(scrooge.id)
      expect(hits[0]!.score).toBeCloseTo(1, 5)
      const unitHits = await store.search('text_unit_text', fakeEmbedding(units[7]!.text, 64), 1)
      expect(unitHits[0]!.id).toBe(units[7]!.id)
      store.close()
    }
    await check()

    const snapshot = await t.tables.read(embeddingSnapshotTable('community_full_content'))
    expect(snapshot.map((r) => r.id)).toEqual(reports.map((r) => r.id))
    const expected = fakeEmbedding(reports[0]!.full_content, 64)
    snapshot[0]!.embedding.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 6))
    expect(await duckDescribe(t.tables.path('embeddings.community_full_content'))).toEqual(
      await duckDescribe(sharedPath('reference', 'msgr-v3-dulce', 'embeddings.community_full_content.parquet')),
    )

    const calls = llm.requests.filter((r) => r.kind === 'embedding').length
    expect(calls).toBeGreaterThan(0)
    const again = await context({ root: t.root })
    await generateTextEmbeddings.run(again.ctx)
    expect(llm.requests.filter((r) => r.kind === 'embedding').length).toBe(calls)
    await check()
  }, 60_000)

  it('writes a table flush by flush inside output/, and in one commit to a store queries may read meanwhile', async () => {
    // batch_size 4: flushes of 100 texts, so the 529 entities come in 6 flushes.
    const versions: Record<string, number> = {}
    for (const [where, dbUri] of [
      ['inside', 'output/lancedb'],
      ['outside', 'vectors'],
    ] as const) {
      const t = await context({
        yaml: `vector_store:\n  vector_size: 64\n  db_uri: ${dbUri}\nembed_text:\n  batch_size: 4\n  names: [entity_description]\n`,
        tables: ['entities'],
      })
      const result = await generateTextEmbeddings.run(t.ctx)
      expect(result.rows).toEqual({ 'lancedb/entity_description': 529 })
      const store = await openVectorStore(t.settings.vector_store.db_uri)
      expect(await store.ids('entity_description')).toEqual((await t.tables.read(ENTITIES)).map((e) => e.id))
      store.close()
      const lancedb = await import('@lancedb/lancedb')
      const db = await lancedb.connect(t.settings.vector_store.db_uri)
      versions[where] = await (await db.openTable('entity_description')).version()
      db.close()
    }
    expect(versions).toEqual({ inside: 6, outside: 1 })
  }, 60_000)

  it('skips a missing source table with a warning', async () => {
    const t = await context({ tables: ['text_units', 'entities'] })
    const result = await generateTextEmbeddings.run(t.ctx)
    expect(t.stats.warnings.some((w) => w.includes('community_reports'))).toBe(true)
    expect(result.rows).toEqual({ 'lancedb/entity_description': 529, 'lancedb/text_unit_text': 42 })
  }, 60_000)

  it('fails fast when the model dimension differs from vector_size, naming both', async () => {
    const t = await context({ yaml: 'vector_store:\n  vector_size: 3072\n', tables: ['text_units'] })
    const run = generateTextEmbeddings.run(t.ctx)
    await expect(run).rejects.toBeInstanceOf(ConfigError)
    await expect(run).rejects.toThrow(/64.*3072/)
  }, 60_000)

  it('embeds all eight fields of the reference family into tables of their own when embed_text.names lists them', async () => {
    const names = `embed_text:\n  names: [${EMBEDDING_NAMES.join(', ')}]\n`
    const t = await context({
      yaml: `vector_store:\n  vector_size: 64\n${names}`,
      tables: ['text_units', 'entities', 'relationships', 'documents', 'community_reports'],
    })
    const result = await generateTextEmbeddings.run(t.ctx)
    const [entities, relationships, documents, reports] = [
      await t.tables.read(ENTITIES),
      await t.tables.read(RELATIONSHIPS),
      await t.tables.read(DOCUMENTS),
      await t.tables.read(COMMUNITY_REPORTS),
    ]
    expect(Object.keys(result.rows!).sort()).toEqual(EMBEDDING_NAMES.map((n) => `lancedb/${n}`).sort())
    const store = await openVectorStore(t.settings.vector_store.db_uri)
    const nearest = async (name: string, text: string) => (await store.search(name, fakeEmbedding(text, 64), 1))[0]!.id
    const rel = relationships.find((r) => r.description !== '')!
    expect(await nearest('entity_title', entities[3]!.title)).toBe(entities[3]!.id)
    expect(await nearest('relationship_description', rel.description)).toBe(rel.id)
    expect(await nearest('document_text', documents[0]!.text)).toBe(documents[0]!.id)
    expect(await nearest('community_title', reports[2]!.title)).toBe(reports[2]!.id)
    expect(await nearest('community_summary', reports[2]!.summary)).toBe(reports[2]!.id)
    expect((await store.vectorsById('relationship_description')).size).toBe(
      relationships.filter((r) => r.description !== '').length,
    )
    store.close()
  }, 60_000)
})
