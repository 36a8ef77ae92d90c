import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { formatPrompt, loadPrompt } from '../../src/prompts/prompt-template.js'
import { getTokenizer } from '../../src/llm/tokenizer.js'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  ENTITIES,
  type CommunityReportRow,
  type CommunityRow,
  type EntityRow,
} from '../../src/model/index.js'
import { globalSearch } from '../../src/query/index.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeProject, systemOf } from './support/dulce.js'
import { maxOverlap } from './support/overlap.js'

const N = 1000
const WORDS = ['harbour', 'ferry', 'council', 'winter', 'budget', 'island', 'crew', 'vote', 'signal', 'archive']

async function syntheticIndex(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'graphrag-global-'))
  const entities: EntityRow[] = []
  const communities: CommunityRow[] = []
  const reports: CommunityReportRow[] = []
  for (let i = 0; i < N; i++) {
    const id = `e${i}`
    entities.push({
      id,
      human_readable_id: i,
      title: `ENTITY ${i}`,
      type: 'THING',
      description: `Entity ${i}`,
      text_unit_ids: [`t${i % 50}`, `t${(i * 7) % 50}`],
      frequency: 1,
      degree: 1,
    })
    communities.push({
      id: `c${i}`,
      human_readable_id: i,
      community: i,
      level: 0,
      parent: -1,
      children: [],
      title: `Community ${i}`,
      entity_ids: [id],
      relationship_ids: [],
      text_unit_ids: [],
      period: '2026-01-01',
      size: 1,
    })
    const body = Array.from({ length: 60 + (i % 40) }, (_, j) => WORDS[(i + j * 3) % WORDS.length]).join(' ')
    reports.push({
      id: `r${i}`,
      human_readable_id: i,
      community: i,
      level: 0,
      parent: -1,
      children: [],
      title: `Report ${i}`,
      summary: body.slice(0, 80),
      full_content: `# Report ${i}\n\n${body}\n\n## Finding\n\n${body}`,
      rank: (i % 10) + 0.5,
      rating_explanation: '',
      findings: [],
      full_content_json: '{}',
      period: '2026-01-01',
      size: 1,
    })
  }
  const store = new ParquetTableStore(dir)
  await store.write(ENTITIES, entities)
  await store.write(COMMUNITIES, communities)
  await store.write(COMMUNITY_REPORTS, reports)
  return dir
}

describe('global search over 1,000 synthetic reports', () => {
  let fake: FakeLlm
  let dataDir: string
  beforeAll(async () => {
    dataDir = await syntheticIndex()
    fake = await startFakeLlm({ latency: { fixedMs: 40 } })
  })
  afterAll(async () => fake?.close())

  it('issues its map calls concurrently (bounded) and keeps every prompt within the token budgets', async () => {
    const maxContext = 3000
    const { settings } = fakeProject(
      fake.baseUrl,
      `concurrent_requests: 8\nglobal_search:\n  max_context_tokens: ${maxContext}\n  data_max_tokens: 500`,
    )
    const result = await globalSearch({
      settings,
      dataDir,
      query: 'What did the council decide about the winter ferry?',
    })
    const maps = fake.requests.filter((r) => r.kind === 'global_map')
    expect(result.context.reports).toHaveLength(N)
    expect(maps.length).toBeGreaterThan(20)
    const overlap = maxOverlap(maps)
    expect(overlap).toBeGreaterThan(1)
    expect(overlap).toBeLessThanOrEqual(8)

    const count = getTokenizer('o200k_base').count
    const template = loadPrompt(null, 'global_search_map_system_prompt.txt', 'global_search.map_prompt')
    const overhead = count(
      formatPrompt(template, { context_data: '', max_length: settings.global_search.map_max_length }),
    )
    for (const m of maps) expect(count(systemOf(m.body))).toBeLessThanOrEqual(maxContext + overhead + 2)

    const reduce = fake.requests.filter((r) => r.kind === 'global_reduce')
    expect(reduce).toHaveLength(1)
    const reduceTemplate = loadPrompt(null, 'global_search_reduce_system_prompt.txt', 'global_search.reduce_prompt')
    const reduceOverhead = count(
      formatPrompt(reduceTemplate, { report_data: '', response_type: 'Multiple Paragraphs', max_length: 2000 }),
    )
    expect(count(systemOf(reduce[0]!.body))).toBeLessThanOrEqual(500 + reduceOverhead + 2)
    expect(result.usage.byStep.map!.calls).toBe(maps.length)
  })
})
