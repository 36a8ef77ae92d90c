import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { QueryError } from '../../src/errors.js'
import { COMMUNITY_REPORTS, TEXT_UNITS } from '../../src/model/index.js'
import { basicSearch, driftSearch, globalSearch, globalSearchStream, localSearch } from '../../src/query/index.js'
import { NO_DATA_ANSWER } from '../../src/query/search/prompts.js'
import { decodeParquet } from '../../src/storage/index.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { fakeEmbedding, startFakeLlm, type FakeLlm, type Responder } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject, systemOf, userOf } from './support/dulce.js'
import { nearestByCosine } from './support/nearest.js'

const QUESTION = 'What is Operation Dulce about?'

describeShared('global, DRIFT and basic search on the Dulce reference index', () => {
  let fake: FakeLlm
  const data = () => sharedPath('reference', 'msgr-v3-dulce')
  const responders: Responder[] = []

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: DULCE_DIMENSION, responders: [(req) => responders[0]?.(req)] })
  })
  afterAll(async () => fake?.close())

  const run = (extra = '') => {
    fake.requests.length = 0
    return { settings: fakeProject(fake.baseUrl, extra).settings, dataDir: data(), query: QUESTION }
  }
  const chats = () => fake.requests.filter((r) => r.kind !== 'embedding')

  it('global: maps the 9 reports of the level-2 cut in token-bounded batches, then reduces', async () => {
    const result = await globalSearch(run('global_search:\n  max_context_tokens: 4000'))
    const ids = result.context.reports!.map((r) => r.id).sort((a, b) => Number(a) - Number(b))
    expect(ids).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    const maps = chats().filter((r) => r.kind === 'global_map')
    expect(maps.length).toBeGreaterThan(1)
    for (const m of maps) {
      const system = systemOf(m.body)
      expect(system).toContain('-----Reports-----\nid|title|occurrence weight|content|rank\n')
      expect(userOf(m.body)).toBe(QUESTION)
      expect((m.body as { response_format?: { type: string } }).response_format?.type).toBe('json_object')
    }
    const reduce = chats().filter((r) => r.kind === 'global_reduce')
    expect(reduce).toHaveLength(1)
    expect(systemOf(reduce[0]!.body)).toMatch(/----Analyst 1----\nImportance Score: \d+\n/)
    expect(result.response).toContain('## Answer')
    expect(result.usage.byStep.map!.calls).toBe(maps.length)
  })

  it('global: the same question gives the same batches (seeded shuffle)', async () => {
    const a = await globalSearch(run())
    const b = await globalSearch(run())
    expect(a.contextText).toBe(b.contextText)
  })

  it('global: answers with the canned reply, no reduce call, when every point scores 0', async () => {
    responders[0] = (req) =>
      req.kind === 'global_map'
        ? JSON.stringify({ points: [{ description: 'Nothing relevant.', score: 0 }] })
        : undefined
    try {
      const result = await globalSearch(run())
      expect(result.response).toBe(NO_DATA_ANSWER)
      expect(chats().some((r) => r.kind === 'global_reduce')).toBe(false)
    } finally {
      responders.length = 0
    }
  })

  it('global: dynamic selection rates the roots and descends into children of relevant ones', async () => {
    // Reports titled "Paranormal Military Squad…" are relevant: roots 0 and 3, and 0's children 7, 8, 9.
    responders[0] = (req) => {
      if (req.kind !== 'dynamic_rating') return undefined
      const text = systemOf(req.body)
      const relevant = /^# Paranormal Military Squad/m.test(text)
      return JSON.stringify({ reason: 'test', rating: relevant ? 4 : 0 })
    }
    try {
      const result = await globalSearch({ ...run(), dynamicCommunitySelection: true, communityLevel: 2 })
      const ratings = chats().filter((r) => r.kind === 'dynamic_rating')
      // 7 roots, then the 3 children of community 0.
      expect(ratings.length).toBe(10)
      const ids = new Set(result.context.reports!.map((r) => r.id))
      expect(ids.has(0)).toBe(false)
      expect([...ids].sort()).toEqual([3, 7, 8, 9])
      expect(result.usage.byStep.rating!.calls).toBe(10)
    } finally {
      responders.length = 0
    }
  })

  it('global: streaming yields the reduce answer in chunks', async () => {
    const stream = globalSearchStream(run())
    const chunks: string[] = []
    for await (const c of stream) chunks.push(c)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.join('')).toBe((await stream.result).response)
    // Stopping early abandons the search: there is no result to resolve.
    const early = globalSearchStream(run())
    for await (const _ of early) break
    await expect(early.result).rejects.toBeInstanceOf(QueryError)
  })

  it('drift: HyDE, primer folds, scored follow-up steps with entity tables, final reduce', async () => {
    const hyde = 'A hypothetical report about the squad at Dulce.'
    responders[0] = (req) =>
      req.kind === 'unknown' && userOf(req.body).startsWith('Write a hypothetical answer') ? hyde : undefined
    let result: Awaited<ReturnType<typeof driftSearch>>
    try {
      result = await driftSearch(run('drift_search:\n  n_depth: 2\n  drift_k_followups: 4\n  primer_folds: 2'))
    } finally {
      responders.length = 0
    }
    // The primer reads the 4 reports of the level-2 cut (all but parent 0) most similar to the HyDE answer's vector.
    const reports = decodeParquet(
      COMMUNITY_REPORTS,
      readFileSync(`${data()}/community_reports.parquet`),
      'community_reports',
    ).filter((r) => r.community !== 0)
    const store = await openVectorStore(`${data()}/lancedb`)
    const vectors = await store.vectorsById(
      'community_full_content',
      reports.map((r) => r.id),
    )
    store.close()
    const expected = nearestByCosine(fakeEmbedding(hyde, DULCE_DIMENSION), vectors).slice(0, 4)
    const primerReports = result.context.primer_reports!
    expect(primerReports.map((r) => r.id)).toEqual(
      expected.map(({ id }) => reports.find((r) => r.id === id)!.community),
    )
    primerReports.forEach((r, i) => expect(r.similarity).toBeCloseTo(expected[i]!.similarity, 10))
    const kinds = chats().map((r) => r.kind)
    expect(kinds.filter((k) => k === 'drift_primer')).toHaveLength(2)
    const steps = chats().filter((r) => r.kind === 'drift_local')
    expect(steps.length).toBe(8)
    for (const step of steps) {
      const system = systemOf(step.body)
      expect(system).toContain(`Overall research question: ${QUESTION}`)
      // Local steps keep room for entities and relationships (the reference gives them 0 tokens).
      expect(system).toMatch(/-----Entities-----\nid\|entity\|description\|number of relationships\n\d+\|/)
      expect(system).toMatch(/-----Relationships-----\nid\|source\|target\|description\|weight\n\d+\|/)
      expect(system).toContain('-----Sources-----\nid|text\n')
    }
    expect(kinds[kinds.length - 1]).toBe('drift_reduce')
    const reduce = chats().at(-1)!
    expect(systemOf(reduce.body)).toContain('----Note 1----\n# Intermediate answer')
    expect(result.context.actions!.filter((a) => a.status === 'answered')).toHaveLength(8)
    expect(result.response).toContain('## Answer')
  })

  it('basic: nearest text units first, in the Sources table, answer returned without streaming', async () => {
    const result = await basicSearch(run('basic_search:\n  k: 3'))
    // Expected order: cosine similarity of the question's vector to every stored text unit vector.
    const store = await openVectorStore(`${data()}/lancedb`)
    const vectors = await store.vectorsById('text_unit_text')
    store.close()
    const units = decodeParquet(TEXT_UNITS, readFileSync(`${data()}/text_units.parquet`), 'text_units')
    const nearest = nearestByCosine(fakeEmbedding(QUESTION, DULCE_DIMENSION), vectors)
      .slice(0, 3)
      .map(({ id }) => units.find((u) => u.id === id)!.human_readable_id)
    // Similarity order, not table order (the reference re-sorts hits into table order).
    expect(nearest).not.toEqual([...nearest].sort((a, b) => a - b))
    expect(result.context.sources!.map((s) => s.id)).toEqual(nearest)
    expect(result.contextText.startsWith('-----Sources-----\nid|text\n')).toBe(true)
    const rowIds = [...result.contextText.matchAll(/^(\d+)\|/gm)].map((m) => Number(m[1]))
    expect(rowIds).toEqual(nearest)
    const call = chats()
    expect(call).toHaveLength(1)
    expect(call[0]!.kind).toBe('basic_search')
    expect(result.response).toContain('[Data: Sources')
  })

  it('offline: local and basic print the ranked context; global and DRIFT the most relevant reports', async () => {
    const offline =
      'local_search:\n  completion_model_id: null\nbasic_search:\n  completion_model_id: null\nglobal_search:\n  completion_model_id: null\ndrift_search:\n  completion_model_id: null'
    const base = run(offline)
    const local = await localSearch(base)
    expect(local.response).toContain('local_search.completion_model_id')
    expect(local.response).toContain('## Entities')
    expect(local.response).toMatch(/## Relationships\n\n- [A-Z :]+ → [A-Z :]+ \(id \d+\): \S/)
    expect(local.response).toContain('## Reports')
    expect(local.response).toContain('## Sources')
    const basic = await basicSearch(base)
    expect(basic.response).toContain('## Sources')
    expect(chats()).toHaveLength(0)
    const global = await globalSearch(base)
    expect(global.response).toContain('global_search.completion_model_id is null')
    expect(global.response).toMatch(/^## 1\. /m)
    const drift = await driftSearch(base)
    expect(drift.response).toContain('drift_search.completion_model_id is null')
    expect(chats()).toHaveLength(0)
  })
})
