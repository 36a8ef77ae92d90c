/**
 * generate_text_embeddings in an update without any cache: which earlier vectors it takes back
 * (text, model and stored vector all unchanged) and which it embeds again, through the fake server.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { generateTextEmbeddings } from '../../../src/index/workflows/generate_text_embeddings.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { EMBEDDING_KEYS, ENTITIES, embeddingSnapshotTable, type EntityRow } from '../../../src/model/index.js'
import { openVectorStore } from '../../../src/storage/vector-store.js'
import { fakeEmbedding, fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { createTestContext, type TestContext } from '../../support/workflow-context.js'

const entity = (i: number, description: string): EntityRow => ({
  id: `e${i}`,
  human_readable_id: i,
  title: `ENTITY ${i}`,
  type: 'PERSON',
  description,
  text_unit_ids: ['t1'],
  frequency: 1,
  degree: 0,
})
const ENTITY_ROWS = [0, 1, 2, 3].map((i) => entity(i, `Entity ${i} keeps the lamp.`))

describe('generate_text_embeddings reuses earlier vectors in an update', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 4 })
  })
  afterAll(async () => llm.close())

  const settingsYaml = (extraYaml = '', embeddingModel?: string) =>
    `${fakeModelSettingsYaml(llm.baseUrl, { embeddingModel })}vector_store:\n  vector_size: 4\nembed_text:\n  names: [entity_description]\n${extraYaml}`

  async function project(extraYaml = ''): Promise<TestContext> {
    const t = await createTestContext({ settingsYaml: settingsYaml(extraYaml) })
    await t.tables.write(ENTITIES, ENTITY_ROWS)
    return t
  }

  /** Runs the workflow as an update (no cache at all); returns the texts sent and the summary. */
  async function runUpdate(t: TestContext): Promise<{ sent: string[]; summary: Record<string, unknown> }> {
    const registry = createModelRegistry(t.settings, { cache: t.ctx.cache, log: SILENT_LOGGER, noCache: true })
    const ctx = { ...t.ctx, previousTables: t.tables, models: registry.forWorkflow(generateTextEmbeddings.name) }
    const from = llm.requests.length
    const result = await generateTextEmbeddings.run(ctx)
    const sent = llm.requests
      .slice(from)
      .filter((r) => r.kind === 'embedding')
      .flatMap((r) => (r.body as { input: string[] }).input)
    return { sent, summary: { ...result.summary } }
  }

  it('embeds only the edited text; with snapshots on the snapshot keeps the model’s exact doubles', async () => {
    const t = await project('snapshots:\n  embeddings: true\n')
    expect((await runUpdate(t)).sent).toHaveLength(4)
    const rows = ENTITY_ROWS.map((e) => (e.id === 'e2' ? { ...e, description: 'Entity 2 sold the lamp.' } : e))
    await t.tables.write(ENTITIES, rows)
    const { sent, summary } = await runUpdate(t)
    expect(sent).toEqual(['ENTITY 2:Entity 2 sold the lamp.'])
    expect(summary).toEqual({ entity_description_reused: 3, entity_description_embedded: 1 })
    const snapshot = await t.tables.read(embeddingSnapshotTable('entity_description'))
    expect(snapshot).toEqual(
      rows.map((e) => ({ id: e.id, embedding: fakeEmbedding(`${e.title}:${e.description}`, 4) })),
    )
    expect((await t.tables.read(EMBEDDING_KEYS)).map((k) => [k.name, k.id])).toEqual(
      rows.map((e) => ['entity_description', e.id]),
    )
  })

  it('embeds again a vector LanceDB no longer holds as recorded (a table rewritten by a run that failed later)', async () => {
    const t = await project()
    await runUpdate(t)
    const store = await openVectorStore(t.settings.vector_store.db_uri)
    const vectors = await store.vectorsById('entity_description')
    vectors.set('e1', Float32Array.from(fakeEmbedding('something else', 4)))
    await store.replaceTable(
      'entity_description',
      [...vectors].map(([id, vector]) => ({ id, vector })),
      new Date(),
    )
    const { sent } = await runUpdate(t)
    expect(sent).toEqual(['ENTITY 1:Entity 1 keeps the lamp.'])
    expect(Array.from((await store.vectorsById('entity_description', ['e1'])).get('e1') ?? [])).toEqual(
      Array.from(Float32Array.from(fakeEmbedding('ENTITY 1:Entity 1 keeps the lamp.', 4))),
    )
    store.close()
  })

  it('embeds every text again when the embedding model changed', async () => {
    const t = await project()
    await runUpdate(t)
    expect((await runUpdate(t)).sent).toHaveLength(0)
    await writeFile(join(t.root, 'settings.yaml'), settingsYaml('', 'text-embedding-3-large'))
    const switched = await createTestContext({ root: t.root })
    expect((await runUpdate(switched)).sent).toHaveLength(ENTITY_ROWS.length)
  })

  it('never reuses for an id that two rows share (which vector is whose is unclear)', async () => {
    const t = await project()
    const twin = { ...entity(1, 'Entity 1 also rows the boat.'), human_readable_id: 4 }
    await t.tables.write(ENTITIES, [...ENTITY_ROWS, twin])
    await runUpdate(t)
    const { sent, summary } = await runUpdate(t)
    expect(sent.sort()).toEqual(['ENTITY 1:Entity 1 also rows the boat.', 'ENTITY 1:Entity 1 keeps the lamp.'])
    expect(summary).toEqual({ entity_description_reused: 3, entity_description_embedded: 2 })
  })
})
