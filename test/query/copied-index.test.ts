import { cpSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  COVARIATES,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
} from '../../src/model/index.js'
import { basicSearch, driftSearch, globalSearch, localSearch } from '../../src/query/index.js'
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
    const vector = Array.from((await store.vectorsById('entity_description', [ALEX])).get(ALEX)!)
    store.close()
    fake = await startFakeLlm({ embeddingDimension: DULCE_DIMENSION, fixedEmbeddings: { [QUESTION]: vector } })
    root = mkdtempSync(join(tmpdir(), 'graphrag-copied-'))
    cpSync(sharedPath('reference', 'msgr-v3-dulce'), join(root, 'output'), { recursive: true })
  })
  afterAll(async () => fake?.close())

  it('reads the default output folder and lancedb from settings (no --data)', async () => {
    const { settings } = fakeProject(fake.baseUrl)
    const moved = {
      ...settings,
      root,
      output_storage: { ...settings.output_storage, base_dir: join(root, 'output') },
      vector_store: { ...settings.vector_store, db_uri: join(root, 'output', 'lancedb') },
    }
    const result = await localSearch({ settings: moved, query: QUESTION })
    expect(result.context.entities![0]!.entity).toBe('ALEX MERCER')
  })

  it('keeps an entity that belongs to no community (the reference drops it)', async () => {
    const store = new ParquetTableStore(join(root, 'output'))
    const communities = await store.read(COMMUNITIES)
    await store.write(
      COMMUNITIES,
      communities.map((c) => ({ ...c, entity_ids: c.entity_ids.filter((id) => id !== ALEX) })),
    )
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

describeShared('all four methods on the Dulce index rewritten in our own formats', () => {
  let fake: FakeLlm
  let dataDir: string
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: DULCE_DIMENSION })
    dataDir = mkdtempSync(join(tmpdir(), 'graphrag-ours-'))
    // Every table through our Parquet writer, every vector table through our LanceDB writer.
    const source = new ParquetTableStore(sharedPath('reference', 'msgr-v3-dulce'))
    const target = new ParquetTableStore(dataDir)
    for (const schema of [ENTITIES, RELATIONSHIPS, COMMUNITIES, COMMUNITY_REPORTS, TEXT_UNITS, COVARIATES]) {
      await target.write(schema, await source.read(schema))
    }
    const from = await openVectorStore(sharedPath('reference', 'msgr-v3-dulce', 'lancedb'))
    const to = await openVectorStore(join(dataDir, 'lancedb'))
    for (const name of ['entity_description', 'community_full_content', 'text_unit_text']) {
      const vectors = await from.vectorsById(name)
      await to.replaceTable(
        name,
        [...vectors].map(([id, vector]) => ({ id, vector })),
        new Date(0),
      )
    }
    from.close()
    to.close()
  })
  afterAll(async () => fake?.close())

  it.each(['local', 'global', 'drift', 'basic'] as const)('%s search answers', async (method) => {
    const { settings } = fakeProject(fake.baseUrl, 'drift_search:\n  n_depth: 1\n  drift_k_followups: 3')
    const search = { local: localSearch, global: globalSearch, drift: driftSearch, basic: basicSearch }[method]
    fake.requests.length = 0
    const result = await search({ settings, dataDir, query: 'Who is Alex Mercer?' })
    expect(result.response).toContain('## Answer')
    // The tables each method reads came through our writers with rows in them.
    const expected = {
      local: ['entities', 'relationships', 'sources'],
      global: ['reports'],
      drift: ['primer_reports', 'actions'],
      basic: ['sources'],
    }[method]
    for (const table of expected) expect(result.context[table]?.length ?? 0, table).toBeGreaterThan(0)
    // The answering call saw that context: its prompt holds the context text (or, for the map-reduce methods, the report texts).
    const final = { local: 'local_search', global: 'global_reduce', drift: 'drift_reduce', basic: 'basic_search' }[
      method
    ]
    const prompts = fake.requests.filter((r) => r.kind === final).map((r) => systemOf(r.body))
    expect(prompts.length).toBeGreaterThan(0)
    if (method === 'local' || method === 'basic') expect(prompts[0]).toContain(result.contextText)
    // The fake model cites the first-column ids of the tables in its prompt; they name records of the context.
    const cited = /\[Data: \w+ \(([^)]*)\)\]/.exec(result.response)?.[1]?.split(', ') ?? []
    expect(cited.length).toBeGreaterThan(0)
  })
})
