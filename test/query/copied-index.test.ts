import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { COMMUNITIES } from '../../src/model/index.js'
import { localSearch } from '../../src/query/index.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject, systemOf } from './support/dulce.js'

const ALEX = 'bbb2ad85-3d0b-4c26-b6f9-71ed76ee64bd'
const QUESTION = 'Tell me about Alex Mercer.'

describeShared('local search on a copy of the Dulce index', () => {
  let fake: FakeLlm
  let root: string
  beforeAll(async () => {
    const store = await openVectorStore(sharedPath('reference', 'msgr-v3-dulce', 'lancedb'))
    const vector = (await store.vectorsById('entity_description', [ALEX])).get(ALEX)!
    store.close()
    fake = await startFakeLlm({ embeddingDimension: DULCE_DIMENSION, fixedEmbeddings: { [QUESTION]: vector } })
    root = mkdtempSync(join(tmpdir(), 'graphrag-copied-'))
    cpSync(sharedPath('reference', 'msgr-v3-dulce'), join(root, 'output'), { recursive: true })
  })
  afterAll(async () => fake?.close())

  it('reads the default output folder and lancedb from settings (no --data)', async () => {
    const { settings } = fakeProject(fake.baseUrl)
    const moved = { ...settings, root, output_storage: { ...settings.output_storage, base_dir: join(root, 'output') }, vector_store: { ...settings.vector_store, db_uri: join(root, 'output', 'lancedb') } }
    const result = await localSearch({ settings: moved, query: QUESTION })
    expect(result.context.entities![0]!.entity).toBe('ALEX MERCER')
  })

  it('keeps an entity that belongs to no community (the reference drops it)', async () => {
    const store = new ParquetTableStore(join(root, 'output'))
    const communities = await store.read(COMMUNITIES)
    await store.write(COMMUNITIES, communities.map((c) => ({ ...c, entity_ids: c.entity_ids.filter((id) => id !== ALEX) })))
    const { settings } = fakeProject(fake.baseUrl)
    fake.requests.length = 0
    const result = await localSearch({ settings, dataDir: join(root, 'output'), query: QUESTION })
    expect(result.context.entities![0]!.entity).toBe('ALEX MERCER')
    const prompt = systemOf(fake.requests.find((r) => r.kind === 'local_search')!.body)
    expect(prompt).toContain('0|ALEX MERCER|')
    // Reports still come from the other mapped entities' communities.
    expect(result.context.reports!.length).toBeGreaterThan(0)
  })
})
