// The three ranked lists of hybrid search one at a time (signals.ts), on the small hand-built index of
// the hybrid CLI test: real LanceDB tables, models behind the fake OpenAI server. Each list may fail
// alone: a failure is a warning (or a logged line) and an empty list, never a failed search.
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig, type Settings } from '../../../src/config/index.js'
import type { HybridWarning } from '../../../src/query/hybrid/citations.js'
import { bm25List, graphSignal, questionVector, vectorList } from '../../../src/query/hybrid/signals.js'
import { loadHybridTables, type HybridTables } from '../../../src/query/hybrid/tables.js'
import { createQueryModels } from '../../../src/query/models.js'
import type { SearchServices } from '../../../src/query/services.js'
import { MeteredChat, UsageMeter } from '../../../src/query/usage.js'
import { openQueryVectors } from '../../../src/query/vectors.js'
import { openVectorStore } from '../../../src/storage/vector-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { testdir } from '../../support/testdir.js'
import { DIMENSION, QUESTIONS, QUESTION_VECTORS, writeHybridIndex } from '../support/hybrid-index.js'

/** Names the entity step returns per question (a JSON list), or a reply that is no list. */
const ENTITY_REPLIES: Record<string, string> = {
  [QUESTIONS.graph]: '["the Harbour Council"]',
  [QUESTIONS.none]: '[]',
  'Who keeps the light?': '["the lighthouse keeper"]',
  'Who sits in the assembly?': '["the town assembly", "the weather"]',
  'What about the moon?': 'I cannot tell',
  'Who runs the harbour board?': '["the harbour board"]',
}

const responders: Responder[] = [
  (req) => (req.kind === 'hybrid_entities' ? (ENTITY_REPLIES[req.messages.at(-1)!.content] ?? '[]') : undefined),
]

/** entity_description vectors: the council along axis 3, Venn along axis 2. */
const ENTITY_VECTORS = [
  { id: 'e-ferry', vector: [1, 0, 0, 0] },
  { id: 'e-venn', vector: [0, 0, 1, 0] },
  { id: 'e-council', vector: [0, 0, 0, 1] },
  { id: 'e-rocks', vector: [0, 1, 0, 0] },
]

const FIXED: Record<string, number[]> = {
  ...QUESTION_VECTORS,
  // Near the council's description vector (cosine ≈ 0.99) and far from every other (the weather).
  'the town assembly': [0, 0, 0.1, 1],
  'the weather': [-1, -1, -1, -1],
  // The council's own description vector: similarity 1.
  'the harbour board': [0, 0, 0, 1],
  // Nearest the council too, but at cosine 0.29 only (below entity_min_similarity 0.5).
  'the lighthouse keeper': [-1, -1, -0.9, 0.5],
}

const titles = (rows: ReadonlyArray<{ title: string }>) => rows.map((r) => r.title)

describe('hybrid search signals', () => {
  let fake: FakeLlm
  let root: string
  let output: string
  let settings: Settings
  let tables: HybridTables
  const open: SearchServices[] = []

  /** Services as a query opens them; `logged` collects the logger's warnings. */
  function services(dbUri = join(output, 'lancedb')): SearchServices & { logged: string[] } {
    const models = createQueryModels(settings, 'hybrid_search', {})
    const meter = new UsageMeter(undefined, undefined)
    const logged: string[] = []
    const s = {
      chat: new MeteredChat(models.chat!, meter),
      embedder: models.embedder,
      vectors: openQueryVectors(settings, dbUri),
      meter,
      countTokens: models.countTokens,
      concurrency: 1,
      rng: () => 0.5,
      logger: { debug() {}, info() {}, error() {}, warn: (m: string) => void logged.push(m) },
      logged,
    }
    open.push(s)
    return s
  }

  const hybrid = (changes: Partial<Settings['hybrid_search']>): Settings => ({
    ...settings,
    hybrid_search: { ...settings.hybrid_search, ...changes },
  })

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: DIMENSION, fixedEmbeddings: FIXED, responders })
    root = await testdir()
    output = join(root, 'output')
    writeFileSync(join(root, 'settings.yaml'), fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 0 }))
    await writeHybridIndex(output, [], true)
    settings = loadConfig({ root, env: {} }).settings
    tables = await loadHybridTables(output)
  })
  afterAll(async () => {
    for (const s of open) s.vectors.close()
    await fake?.close()
  })

  describe('the question vector and the vector list', () => {
    it('embeds the question once and counts the call', async () => {
      const s = services()
      const warnings: HybridWarning[] = []
      // The vector crosses the wire as base64 float32, as a provider's does: the float32 nearest each number.
      const asSent = Array.from(Float32Array.from(QUESTION_VECTORS[QUESTIONS.graph] ?? []))
      expect(await questionVector(QUESTIONS.graph, s, warnings)).toEqual(asSent)
      expect(warnings).toEqual([])
      expect(s.meter.summary()).toMatchObject({ embeddingCalls: 1 })
      expect(s.meter.summary().embeddingTokens).toBeGreaterThan(0)
    })

    it('leaves vector similarity out with a warning when the question cannot be embedded', async () => {
      const warnings: HybridWarning[] = []
      fake.setFaults({ rate: 1, kinds: ['500'] })
      try {
        expect(await questionVector(QUESTIONS.graph, services(), warnings)).toBeUndefined()
      } finally {
        fake.setFaults(undefined)
      }
      expect(warnings).toHaveLength(1)
      expect(warnings[0]!.type).toBe('embedding_failed')
      expect(warnings[0]!.detail).toMatch(/^the question could not be embedded, so vector similarity is left out: \S/)
    })

    it('ranks text units by similarity to the vector, nearest first, k of them', async () => {
      const warnings: HybridWarning[] = []
      const list = await vectorList([0.8, 0.6, 0, 0], 2, services(), warnings)
      expect(list.signal).toBe('vector')
      expect(list.hits.map((h) => h.id)).toEqual(['u1', 'u2'])
      expect(list.hits[0]!.score).toBeGreaterThan(list.hits[1]!.score)
      expect(Object.keys(list.hits[0]!).sort()).toEqual(['id', 'score'])
      expect(warnings).toEqual([])
    })

    it('gives an empty list without a vector, and without a search', async () => {
      const warnings: HybridWarning[] = []
      const s = services(join(root, 'no-such-folder'))
      expect(await vectorList(undefined, 5, s, warnings)).toEqual({ signal: 'vector', hits: [] })
      expect(warnings).toEqual([])
    })

    it('leaves vector similarity out with a warning when the search fails (a vector of another model)', async () => {
      const warnings: HybridWarning[] = []
      expect(await vectorList([1, 0], 2, services(), warnings)).toEqual({ signal: 'vector', hits: [] })
      expect(warnings).toHaveLength(1)
      expect(warnings[0]!.type).toBe('embedding_failed')
      expect(warnings[0]!.detail).toMatch(
        /^vector search over text_unit_text failed, so vector similarity is left out: searching text_unit_text in /,
      )
    })
  })

  describe('the BM25 list', () => {
    it('builds the full-text table on first use and finds the exact code, best first, bm25_top_k of them', async () => {
      const dbUri = await testdir()
      const warnings: HybridWarning[] = []
      const list = await bm25List(QUESTIONS.bm25, tables, dbUri, hybrid({ bm25_top_k: 1 }).hybrid_search, warnings)
      expect(warnings).toEqual([])
      expect(list.signal).toBe('bm25')
      expect(list.hits.map((h) => h.id)).toEqual(['u3'])
      expect(list.hits[0]!.score).toBeGreaterThan(0)
      // Built once: the same table serves the next question, even with building off.
      const again = await bm25List('gear', tables, dbUri, hybrid({ build_fts: false }).hybrid_search, warnings)
      expect(warnings).toEqual([])
      expect(again.hits.map((h) => h.id).sort()).toEqual(['u3', 'u5'])
    })

    it('leaves BM25 out with a warning when the table is missing or stale and building is off', async () => {
      const dbUri = await testdir()
      const off = hybrid({ build_fts: false, fts_table: 'passages_fts' }).hybrid_search
      const warnings: HybridWarning[] = []
      expect(await bm25List(QUESTIONS.bm25, tables, dbUri, off, warnings)).toEqual({ signal: 'bm25', hits: [] })
      await bm25List(QUESTIONS.bm25, tables, dbUri, { ...off, build_fts: true }, [])
      // The corpus changed since the table was built: it no longer matches the text units.
      const changed = { ...tables, text_units: tables.text_units.slice(1) }
      expect(await bm25List(QUESTIONS.bm25, changed, dbUri, off, warnings)).toEqual({ signal: 'bm25', hits: [] })
      expect(warnings).toEqual([
        {
          type: 'bm25_unavailable',
          detail:
            'the full-text table passages_fts is missing and hybrid_search.build_fts is false, so BM25 is left out',
        },
        {
          type: 'bm25_unavailable',
          detail: 'the full-text table passages_fts is stale and hybrid_search.build_fts is false, so BM25 is left out',
        },
      ])
    })

    it('leaves BM25 out with a warning when the full-text table cannot be built', async () => {
      // The vector store's folder would be inside a file.
      const dbUri = join(await testdir({ notes: 'a file' }), 'notes', 'lancedb')
      const warnings: HybridWarning[] = []
      expect(await bm25List(QUESTIONS.bm25, tables, dbUri, settings.hybrid_search, warnings)).toEqual({
        signal: 'bm25',
        hits: [],
      })
      expect(warnings).toHaveLength(1)
      expect(warnings[0]!.type).toBe('bm25_unavailable')
      // LanceDB's own message, which names the folder.
      expect(warnings[0]!.detail).toMatch(/^BM25 is left out: \S/)
      expect(warnings[0]!.detail).toContain(dbUri)
    })
  })

  describe('the graph path', () => {
    it("walks from the question's entities and ranks their passages by hops", async () => {
      const warnings: HybridWarning[] = []
      const graph = await graphSignal(QUESTIONS.graph, tables, settings, services(), warnings, undefined)
      expect(warnings).toEqual([])
      expect(titles(graph.matched)).toEqual(['HARBOUR COUNCIL'])
      expect(graph.reached.map((r) => [r.entity.title, r.hops])).toEqual([
        ['HARBOUR COUNCIL', 0],
        ['ELIAS VENN', 1],
      ])
      expect(graph.list).toEqual({
        signal: 'graph',
        hits: [
          { id: 'u6', score: 1 },
          { id: 'u5', score: 0.5 },
        ],
      })
      expect([...graph.detail]).toEqual([
        ['u6', { hops: 0, entity: 'HARBOUR COUNCIL' }],
        ['u5', { hops: 1, entity: 'ELIAS VENN' }],
      ])
    })

    it('takes graph_top_k passages and walks max_hops relationships', async () => {
      const s = services()
      const one = await graphSignal(QUESTIONS.graph, tables, hybridSettings({ graph_top_k: 1 }), s, [], undefined)
      expect(one.list.hits.map((h) => h.id)).toEqual(['u6'])
      const near = await graphSignal(QUESTIONS.graph, tables, hybridSettings({ max_hops: 0 }), s, [], undefined)
      expect(near.reached.map((r) => r.entity.title)).toEqual(['HARBOUR COUNCIL'])
    })

    it('warns when no graph entity matches, naming what the question asked about', async () => {
      const none: HybridWarning[] = []
      const graph = await graphSignal(QUESTIONS.none, tables, settings, services(), none, undefined)
      expect(graph.list.hits).toEqual([])
      expect(graph.matched).toEqual([])
      expect(none).toEqual([
        {
          type: 'no_entities_matched',
          detail: "no graph entity matches the question's entities (none found), so the graph path is left out",
        },
      ])
      const named: HybridWarning[] = []
      await graphSignal('Who sits in the assembly?', tables, settings, services(), named, undefined)
      expect(named.map((w) => w.detail)).toEqual([
        "no graph entity matches the question's entities (the town assembly, the weather), so the graph path is left out",
      ])
    })

    it("uses noun phrases, with a warning, when the model's entity reply is unusable", async () => {
      const warnings: HybridWarning[] = []
      await graphSignal('What about the moon?', tables, settings, services(), warnings, undefined)
      expect(warnings[0]).toEqual({
        type: 'entity_extraction_failed',
        detail: "the model's entity reply is not a JSON list: I cannot tell; used noun phrases instead",
      })
    })

    it('maps an unmatched name to the nearest entity_description vector when similar enough', async () => {
      const dir = await withEntityVectors()
      const s = services(dir)
      const warnings: HybridWarning[] = []
      const question = 'Who sits in the assembly?'
      const vector = QUESTION_VECTORS[QUESTIONS.none]!
      const noRelations = hybridSettings({ relationship_top_k: 0 })
      const graph = await graphSignal(question, tables, noRelations, s, warnings, vector)
      expect(warnings).toEqual([])
      // "the town assembly" is near the council; "the weather" is near nothing.
      expect(titles(graph.matched)).toEqual(['HARBOUR COUNCIL'])
      expect(s.meter.summary().embeddingCalls).toBe(1)
      expect(s.meter.summary().embeddingTokens).toBe(
        s.embedder.countTokens('the town assembly') + s.embedder.countTokens('the weather'),
      )
      // Below entity_min_similarity: no match.
      const keeper = await graphSignal('Who keeps the light?', tables, noRelations, s, [], vector)
      expect(keeper.matched).toEqual([])
      const lenient = hybridSettings({ relationship_top_k: 0, entity_min_similarity: 0.25 })
      expect(titles((await graphSignal('Who keeps the light?', tables, lenient, s, [], vector)).matched)).toEqual([
        'HARBOUR COUNCIL',
      ])
      // At exactly entity_min_similarity a name counts.
      const exact = hybridSettings({ relationship_top_k: 0, entity_min_similarity: 1 })
      expect(titles((await graphSignal('Who runs the harbour board?', tables, exact, s, [], vector)).matched)).toEqual([
        'HARBOUR COUNCIL',
      ])
      // Without a question vector (embedding failed) nothing is looked up by vector.
      const before = s.meter.summary().embeddingCalls
      expect((await graphSignal(question, tables, noRelations, s, [], undefined)).matched).toEqual([])
      expect(s.meter.summary().embeddingCalls).toBe(before)
      expect(s.logged).toEqual([])
    })

    it('adds nothing by vector when the index has no entity_description or relationship_description table', async () => {
      // An index with no vectors of either kind (say, embed_text left them out): no lookup, no failure.
      const s = services(join(await testdir(), 'lancedb'))
      const graph = await graphSignal('Who sits in the assembly?', tables, settings, s, [], [0, 0, 0, 1])
      expect(graph.matched).toEqual([])
      expect(s.meter.summary().embeddingCalls).toBe(0)
      expect(s.logged).toEqual([])
      // With the vectors but every name matched: nothing to embed.
      const matched = services(await withEntityVectors())
      const council = await graphSignal(QUESTIONS.graph, tables, settings, matched, [], [0, 0, 1, 0])
      expect(titles(council.matched)).toEqual(['HARBOUR COUNCIL'])
      expect(matched.meter.summary().embeddingCalls).toBe(0)
      expect(matched.logged).toEqual([])
    })

    it('never adds an entity twice: a name nearest an entity already matched adds nothing', async () => {
      const dir = await withEntityVectors()
      const names = await graphSignal(
        'Who sits in the assembly with the Harbour Council?',
        tables,
        hybridSettings({ relationship_top_k: 0 }),
        services(dir),
        [],
        [0, 0, 0, 1],
      )
      expect(titles(names.matched)).toEqual(['HARBOUR COUNCIL'])
    })

    it('starts the walk from both ends of the relationships nearest the question', async () => {
      const s = services()
      const warnings: HybridWarning[] = []
      // r1 (Venn → council) is the only relationship vector, pointing the question's way.
      const graph = await graphSignal(QUESTIONS.none, tables, settings, s, warnings, QUESTION_VECTORS[QUESTIONS.none])
      expect(warnings).toEqual([])
      expect(titles(graph.matched)).toEqual(['ELIAS VENN', 'HARBOUR COUNCIL'])
      expect(graph.reached.every((r) => r.hops === 0)).toBe(true)
      // Already matched: not added twice.
      const council = await graphSignal(QUESTIONS.graph, tables, settings, s, [], QUESTION_VECTORS[QUESTIONS.graph])
      expect(titles(council.matched)).toEqual(['HARBOUR COUNCIL', 'ELIAS VENN'])
      // An end the entities table lacks is skipped.
      const withoutVenn = { ...tables, entities: tables.entities.filter((e) => e.title !== 'ELIAS VENN') }
      const vector = QUESTION_VECTORS[QUESTIONS.none]
      expect(titles((await graphSignal(QUESTIONS.none, withoutVenn, settings, s, [], vector)).matched)).toEqual([
        'HARBOUR COUNCIL',
      ])
      // At exactly entity_min_similarity (the same vector: similarity 1) a relationship counts.
      const strict = hybridSettings({ entity_min_similarity: 1 })
      expect(titles((await graphSignal(QUESTIONS.none, tables, strict, s, [], [0.8, 0.6, 0, 0])).matched)).toEqual([
        'ELIAS VENN',
        'HARBOUR COUNCIL',
      ])
      // Too far from the question (cosine 0 < entity_min_similarity), or relationship_top_k 0: none.
      expect((await graphSignal(QUESTIONS.none, tables, settings, s, [], [0, 0, 1, 0])).matched).toEqual([])
      const off = hybridSettings({ relationship_top_k: 0 })
      expect((await graphSignal(QUESTIONS.none, tables, off, s, [], QUESTION_VECTORS[QUESTIONS.none])).matched).toEqual(
        [],
      )
      expect(s.logged).toEqual([])
    })

    it('logs, and keeps the graph path, when a vector lookup fails', async () => {
      const s = services(await withEntityVectors())
      // A vector of another dimension: the relationship_description search fails.
      const broken = await graphSignal(QUESTIONS.graph, tables, settings, s, [], [1, 0])
      expect(titles(broken.matched)).toEqual(['HARBOUR COUNCIL'])
      expect(s.logged).toEqual([
        expect.stringMatching(
          /^hybrid search: searching relationship_description failed: searching relationship_description in /,
        ),
      ])
      // The embedding of the unmatched names fails: logged, the names stay unmatched.
      s.logged.length = 0
      fake.setFaults({ rate: 1, kinds: ['500'] })
      try {
        const names = await graphSignal(
          'What did the Lord Mayor Pemberton say to the town assembly?',
          tables,
          hybridSettings({ relationship_top_k: 0, query_entities: 'noun_phrases' }),
          s,
          [],
          [0, 0, 0, 1],
        )
        expect(names.matched).toEqual([])
      } finally {
        fake.setFaults(undefined)
      }
      expect(s.logged).toEqual([
        expect.stringMatching(/^hybrid search: matching question entities by entity_description vectors failed: \S/),
      ])
    })
  })

  function hybridSettings(changes: Partial<Settings['hybrid_search']>): Settings {
    return hybrid(changes)
  }

  /** A vector store with entity_description vectors, and relationship_description as the index's. */
  async function withEntityVectors(): Promise<string> {
    const dir = join(await testdir(), 'lancedb')
    const store = await openVectorStore(dir)
    const when = new Date(Date.UTC(2026, 0, 1))
    await store.replaceTable('entity_description', ENTITY_VECTORS, when)
    await store.replaceTable('relationship_description', [{ id: 'r1', vector: [0.8, 0.6, 0, 0] }], when)
    store.close()
    return dir
  }
})
