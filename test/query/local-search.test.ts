import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { COMMUNITY_REPORTS, COVARIATES, ENTITIES, RELATIONSHIPS, TEXT_UNITS } from '../../src/model/index.js'
import { decodeParquet } from '../../src/storage/index.js'
import { getTokenizer } from '../../src/llm/tokenizer.js'
import { localSearch, localSearchStream } from '../../src/query/index.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject, systemOf, userOf } from './support/dulce.js'
import { nearestByCosine } from './support/nearest.js'

const QUESTION = 'Who is Alex Mercer and who does he work with?'
const ALEX = 'bbb2ad85-3d0b-4c26-b6f9-71ed76ee64bd'

describeShared('local search on the Dulce reference index', () => {
  let fake: FakeLlm
  let alexVector: number[]
  let nearest: string[]
  let nearestTitles: string[]
  const data = () => sharedPath('reference', 'msgr-v3-dulce')

  beforeAll(async () => {
    const store = await openVectorStore(`${data()}/lancedb`)
    const vectors = await store.vectorsById('entity_description')
    store.close()
    alexVector = Array.from(vectors.get(ALEX)!)
    nearest = nearestByCosine(alexVector, vectors)
      .slice(0, 10)
      .map((h) => h.id)
    const entities = decodeParquet(ENTITIES, readFileSync(`${data()}/entities.parquet`), 'entities')
    nearestTitles = nearest.map((id) => entities.find((e) => e.id === id)!.title)
    fake = await startFakeLlm({ embeddingDimension: DULCE_DIMENSION, fixedEmbeddings: { [QUESTION]: alexVector } })
  })
  afterAll(async () => fake?.close())

  const options = () => {
    const { settings } = fakeProject(fake.baseUrl)
    return { settings, dataDir: data(), query: QUESTION }
  }

  it('maps the stored vector of ALEX MERCER to exactly top_k entities, nearest first', async () => {
    // A budget large enough for every mapped entity, so the table shows the whole mapping.
    const { settings } = fakeProject(fake.baseUrl, 'local_search:\n  max_context_tokens: 60000')
    const result = await localSearch({ ...options(), settings })
    const entities = result.context.entities!
    expect(entities).toHaveLength(10)
    expect(entities.map((e) => e.entity)).toEqual(nearestTitles)
    expect(entities[0]!.entity).toBe('ALEX MERCER')
    expect(entities[0]!.id).toBe(0)
    expect(nearest[0]).toBe(ALEX)
    const three = fakeProject(fake.baseUrl, 'local_search:\n  top_k_entities: 3').settings
    const small = await localSearch({ ...options(), settings: three })
    expect(small.context.entities!.map((e) => e.entity)).toEqual(nearestTitles.slice(0, 3))
    // Relationships start with in-network ones among the mapped entities, ALEX MERCER among them.
    const rels = result.context.relationships!
    expect(rels.length).toBeGreaterThan(0)
    expect(rels.some((r) => r.source === 'ALEX MERCER' || r.target === 'ALEX MERCER')).toBe(true)
  })

  it('sends the context tables with the reference headers in the system prompt, the question as user message', async () => {
    fake.requests.length = 0
    const result = await localSearch({ ...options(), responseType: 'Single Sentence' })
    const text = result.contextText
    expect(text).toContain('-----Reports-----\nid|title|content\n')
    expect(text).toContain('-----Entities-----\nid|entity|description|number of relationships\n0|ALEX MERCER|')
    expect(text).toContain('-----Relationships-----\nid|source|target|description|weight\n')
    expect(text).toContain('-----claims-----\nid|entity|object_id|status|start_date|end_date|description\n')
    expect(text).toContain('-----Sources-----\nid|text\n')
    const order = [
      '-----Reports-----',
      '-----Entities-----',
      '-----Relationships-----',
      '-----claims-----',
      '-----Sources-----',
    ].map((h) => text.indexOf(h))
    expect([...order].sort((a, b) => a - b)).toEqual(order)
    const chats = fake.requests.filter((r) => r.kind !== 'embedding')
    expect(chats).toHaveLength(1)
    expect(chats[0]!.kind).toBe('local_search')
    expect(chats[0]!.stream).toBe(true)
    expect(systemOf(chats[0]!.body)).toContain(text)
    expect(systemOf(chats[0]!.body)).toContain('Single Sentence')
    expect(userOf(chats[0]!.body)).toBe(QUESTION)
    expect(result.response).toContain('## Answer')
    const embeds = fake.requests.filter((r) => r.kind === 'embedding')
    expect(embeds).toHaveLength(1)
  })

  it('pins every section of the context for the ALEX MERCER vector (default settings)', async () => {
    const result = await localSearch(options())
    const c = result.context
    // Candidates by mapped entities matched, then rank: 7, 8 (three each), 3 (two), 4, 1 (one); only 7 and 1 fit 15 %.
    expect(c.reports!.map((r) => r.id)).toEqual([7, 1])
    // Entities: the prefix ALEX MERCER … TEAM OF AGENTS with their relationships and claims, then rows that still fit.
    expect(c.entities!.map((e) => [e.id, e.entity, e['number of relationships']])).toEqual([
      [0, 'ALEX MERCER', 17],
      [3, 'SAM RIVERA', 17],
      [5, 'OPERATION: DULCE', 8],
      [17, 'TEAM OF AGENTS', 7],
      [4, 'PARANORMAL MILITARY SQUAD', 12],
      [29, 'AGENT', 6],
    ])
    // In-network by combined degree, then out-network by links to the prefix (DULCE BASE: 4; TAYLOR CRUZ,
    // PARANORMAL MILITARY SQUAD, BASE, MISSION: 3; …) and combined degree, 10 per prefix entity.
    const relationshipIds = [
      10, 21, 92, 93, 47, 49, 69, 43, 7, 23, 42, 0, 3, 94, 96, 97, 101, 102, 68, 4, 95, 100, 8, 11, 40, 41, 104, 105,
      25, 28, 29, 30, 22, 50, 62, 5, 45, 63, 14, 87, 73, 75, 34, 76,
    ]
    expect(c.relationships!.map((r) => r.id)).toEqual(relationshipIds)
    const claimIds = [1, 8, 9, 16, 31, 36, 3, 7, 17, 22, 30, 37, 6, 35, 40]
    expect(c.claims!.map((r) => r.id)).toEqual(claimIds)
    expect(c.sources!.map((s) => s.id)).toEqual([1, 3, 4, 2, 0])

    // The text, rebuilt from the Parquet rows with the table format: `|` joins, QUOTE_MINIMAL fields, Python floats.
    const read = <S extends Parameters<typeof decodeParquet>[0]>(schema: S, file: string) =>
      decodeParquet(schema, readFileSync(`${data()}/${file}.parquet`), file)
    const q = (v: string | number | null) => {
      const text = v === null ? '' : String(v)
      return /[|"\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
    }
    const row = (...cells: (string | number | null)[]) => cells.map(q).join('|')
    const float = (n: number) => (Number.isInteger(n) ? `${n}.0` : String(n))
    const table = (title: string, header: string, rows: string[]) => [`-----${title}-----`, header, ...rows].join('\n')
    const reports = read(COMMUNITY_REPORTS, 'community_reports')
    const entities = read(ENTITIES, 'entities')
    const relationships = read(RELATIONSHIPS, 'relationships')
    const claims = read(COVARIATES, 'covariates')
    const units = read(TEXT_UNITS, 'text_units')
    const expected = [
      table(
        'Reports',
        'id|title|content',
        [7, 1]
          .map((id) => reports.find((r) => r.community === id)!)
          .map((r) => row(r.community, r.title, r.full_content)),
      ),
      table(
        'Entities',
        'id|entity|description|number of relationships',
        [0, 3, 5, 17, 4, 29]
          .map((id) => entities.find((e) => e.human_readable_id === id)!)
          .map((e) => row(e.human_readable_id, e.title, e.description, e.degree)),
      ),
      table(
        'Relationships',
        'id|source|target|description|weight',
        relationshipIds
          .map((id) => relationships.find((r) => r.human_readable_id === id)!)
          .map((r) => `${row(r.human_readable_id, r.source, r.target, r.description)}|${float(r.weight)}`),
      ),
      table(
        'claims',
        'id|entity|object_id|status|start_date|end_date|description',
        claimIds
          .map((id) => claims.find((r) => r.human_readable_id === id)!)
          .map((r) =>
            row(r.human_readable_id, r.subject_id, r.object_id, r.status, r.start_date, r.end_date, r.description),
          ),
      ),
      table(
        'Sources',
        'id|text',
        [1, 3, 4, 2, 0]
          .map((id) => units.find((u) => u.human_readable_id === id)!)
          .map((u) => row(u.human_readable_id, u.text)),
      ),
    ].join('\n\n')
    expect(result.contextText).toBe(expected)
  })

  it('stays within max_context_tokens', async () => {
    const { settings } = fakeProject(fake.baseUrl, 'local_search:\n  max_context_tokens: 3000')
    const result = await localSearch({ settings, dataDir: data(), query: QUESTION })
    expect(getTokenizer('o200k_base').count(result.contextText)).toBeLessThanOrEqual(3000)
    expect(result.context.entities!.length).toBeGreaterThan(0)
  })

  it('streams the answer chunk by chunk and resolves the same result', async () => {
    const stream = localSearchStream(options())
    const chunks: string[] = []
    for await (const chunk of stream) chunks.push(chunk)
    const result = await stream.result
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.join('')).toBe(result.response)
    expect(result.usage.calls).toBe(1)
    expect(result.usage.embeddingCalls).toBe(1)
  })
})
