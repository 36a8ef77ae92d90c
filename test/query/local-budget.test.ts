import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { getTokenizer } from '../../src/llm/tokenizer.js'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
  type CommunityReportRow,
  type CommunityRow,
} from '../../src/model/index.js'
import { localSearch } from '../../src/query/index.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { fakeEmbedding, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared } from '../support/shared.js'
import { fakeProject } from './support/dulce.js'

const DIMENSION = 8
const WORDS = ['harbour', 'ferry', 'council', 'winter', 'budget', 'island', 'crew', 'vote', 'signal', 'archive']
const words = (n: number, seed: number) =>
  Array.from({ length: n }, (_, i) => WORDS[(seed + i * 3) % WORDS.length]).join(' ')
const PEOPLE = ['ANNA', 'BORIS', 'CLARA', 'DAVID', 'EMMA', 'FELIX', 'GRETA', 'HUGO']
const UNITS = 20

/** Eight people in a ring of relationships, two communities (a short and a long report), 20 passages of 100 words. */
async function syntheticIndex(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'graphrag-budget-'))
  const units = Array.from({ length: UNITS }, (_, i) => ({
    id: `t${i}`,
    human_readable_id: i,
    text: words(100, i),
    n_tokens: 100,
    document_id: 'd0',
    entity_ids: ['e0'],
    relationship_ids: [],
    covariate_ids: [],
  }))
  const entities = PEOPLE.map((title, i) => ({
    id: `e${i}`,
    human_readable_id: i,
    title,
    type: 'PERSON',
    description: words(20, i),
    text_unit_ids: i === 0 ? units.map((u) => u.id) : ['t0'],
    frequency: 1,
    degree: 2,
  }))
  const relationships = PEOPLE.map((source, i) => ({
    id: `r${i}`,
    human_readable_id: i,
    source,
    target: PEOPLE[(i + 1) % PEOPLE.length]!,
    description: words(15, i),
    weight: 1,
    combined_degree: 4,
    text_unit_ids: ['t0'],
  }))
  const community = (c: number, members: string[]): CommunityRow => ({
    id: `c${c}`,
    human_readable_id: c,
    community: c,
    level: 0,
    parent: -1,
    children: [],
    title: `Community ${c}`,
    entity_ids: members,
    relationship_ids: [],
    text_unit_ids: [],
    period: '',
    size: members.length,
  })
  const communities = [community(0, ['e0', 'e1', 'e2', 'e3']), community(1, ['e4', 'e5', 'e6', 'e7'])]
  const report = (c: CommunityRow, length: number): CommunityReportRow => ({
    ...c,
    id: `report${c.community}`,
    title: `Report ${c.community}`,
    summary: '',
    full_content: `# Report ${c.community}\n\n${words(length, c.community)}`,
    rank: 5 - c.community,
    rating_explanation: '',
    findings: [],
    full_content_json: '{}',
  })
  const store = new ParquetTableStore(dir)
  await store.write(ENTITIES, entities)
  await store.write(RELATIONSHIPS, relationships)
  await store.write(COMMUNITIES, communities)
  await store.write(COMMUNITY_REPORTS, [report(communities[0]!, 10), report(communities[1]!, 200)])
  await store.write(TEXT_UNITS, units)
  const vectors = await openVectorStore(join(dir, 'lancedb'))
  await vectors.replaceTable(
    'entity_description',
    entities.map((e) => ({ id: e.id, vector: fakeEmbedding(e.title, DIMENSION) })),
    new Date(0),
  )
  vectors.close()
  return dir
}

describeShared('local context budget split', () => {
  let fake: FakeLlm
  let dataDir: string
  beforeAll(async () => {
    dataDir = await syntheticIndex()
    fake = await startFakeLlm({ embeddingDimension: DIMENSION })
  })
  afterAll(async () => fake?.close())

  const count = getTokenizer('o200k_base').count

  /** Token counts of the Reports, Entities+Relationships+Claims and Sources sections of an (offline) local context. */
  async function sections(maxContextTokens: number) {
    const { settings } = fakeProject(
      fake.baseUrl,
      `local_search:\n  completion_model_id: null\n  top_k_entities: 8\n  max_context_tokens: ${maxContextTokens}`,
    )
    const result = await localSearch({ settings, dataDir, query: 'Who are Anna and Boris?' })
    const parts = result.contextText.split(/\n\n(?=-----)/)
    const tokens = (...titles: string[]) =>
      parts.filter((p) => titles.some((t) => p.startsWith(`-----${t}-----`))).reduce((n, p) => n + count(`${p}\n`), 0)
    return {
      reports: tokens('Reports'),
      local: tokens('Entities', 'Relationships', 'claims'),
      sources: tokens('Sources'),
      context: result.context,
    }
  }

  it('gives reports 15 %, entities/relationships 35 % and sources 50 %, each section passing its unused room on', async () => {
    // Small budget: the short report fits, the long one does not; the room it leaves goes to the entity tables.
    const small = 600
    const s = await sections(small)
    const share = (p: number) => Math.floor(small * p)
    expect(s.context.reports!.map((r) => r.id)).toEqual([0])
    expect(s.reports).toBeGreaterThan(0)
    expect(s.reports).toBeLessThanOrEqual(share(0.15))
    expect(s.local).toBeGreaterThan(share(0.35))
    expect(s.local).toBeLessThanOrEqual(share(0.15) + share(0.35) - s.reports)
    expect(s.sources).toBeLessThanOrEqual(small - s.reports - s.local)

    // Large budget: both reports fit, the entity tables take all they need, and the sources get the rest.
    const large = 2000
    const l = await sections(large)
    const part = (p: number) => Math.floor(large * p)
    expect(l.context.reports!.map((r) => r.id)).toEqual([0, 1])
    expect(l.reports).toBeLessThanOrEqual(part(0.15))
    expect(l.context.entities).toHaveLength(PEOPLE.length)
    expect(l.context.relationships).toHaveLength(PEOPLE.length)
    expect(l.local).toBeLessThan(part(0.35))
    expect(l.sources).toBeGreaterThan(part(0.5))
    expect(l.sources).toBeLessThanOrEqual(large - l.reports - l.local)
    expect(l.context.sources!.length).toBeLessThan(UNITS)
  })

  it('charges the conversation history to the same budget: the whole context stays within max_context_tokens', async () => {
    const max = 3000
    const { settings } = fakeProject(
      fake.baseUrl,
      `local_search:\n  completion_model_id: null\n  top_k_entities: 8\n  max_context_tokens: ${max}`,
    )
    const history = Array.from({ length: 6 }, (_, i) => ({
      role: i % 2 === 0 ? ('user' as const) : ('assistant' as const),
      content: words(120, i),
    }))
    const withHistory = await localSearch({ settings, dataDir, query: 'Who are Anna and Boris?', history })
    expect(withHistory.contextText).toContain('-----Conversation History-----')
    expect(count(withHistory.contextText)).toBeLessThanOrEqual(max)
    // The sources give up the room the history takes.
    const without = await localSearch({ settings, dataDir, query: 'Who are Anna and Boris?' })
    expect(withHistory.context.sources!.length).toBeLessThan(without.context.sources!.length)
  })
})
