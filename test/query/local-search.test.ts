import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ENTITIES } from '../../src/model/index.js'
import { decodeParquet } from '../../src/storage/index.js'
import { getTokenizer } from '../../src/llm/tokenizer.js'
import { localSearch, localSearchStream } from '../../src/query/index.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject, systemOf, userOf } from './support/dulce.js'

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
    alexVector = (await store.vectorsById('entity_description', [ALEX])).get(ALEX)!
    nearest = (await store.search('entity_description', alexVector, 10)).map((h) => h.id)
    const entities = decodeParquet(ENTITIES, readFileSync(`${data()}/entities.parquet`), 'entities')
    nearestTitles = nearest.map((id) => entities.find((e) => e.id === id)!.title)
    store.close()
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
    const order = ['-----Reports-----', '-----Entities-----', '-----Relationships-----', '-----claims-----', '-----Sources-----'].map((h) => text.indexOf(h))
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
