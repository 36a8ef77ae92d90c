import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES } from '../../src/model/index.js'
import { globalSearch } from '../../src/query/index.js'
import { NO_DATA_ANSWER } from '../../src/query/search/prompts.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeProject, systemOf } from './support/dulce.js'

// 0 → {2, 3}, 1 → {4}, 2 → {5}; levels 0, 1, 2.
const TREE = [
  { community: 0, level: 0, parent: -1, children: [2, 3] },
  { community: 1, level: 0, parent: -1, children: [4] },
  { community: 2, level: 1, parent: 0, children: [5] },
  { community: 3, level: 1, parent: 0, children: [] },
  { community: 4, level: 1, parent: 1, children: [] },
  { community: 5, level: 2, parent: 2, children: [] },
]

async function index(relevant: readonly number[]): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'graphrag-dynamic-'))
  const store = new ParquetTableStore(dir)
  await store.write(ENTITIES, [])
  await store.write(
    COMMUNITIES,
    TREE.map((c) => ({
      ...c,
      id: `c${c.community}`,
      human_readable_id: c.community,
      title: `Community ${c.community}`,
      entity_ids: [],
      relationship_ids: [],
      text_unit_ids: [],
      period: '',
      size: 1,
    })),
  )
  await store.write(
    COMMUNITY_REPORTS,
    TREE.map((c) => {
      const title = `${relevant.includes(c.community) ? 'Relevant' : 'Unrelated'} report ${c.community}`
      return {
        ...c,
        id: `r${c.community}`,
        human_readable_id: c.community,
        title,
        summary: title,
        full_content: `# ${title}\n\nBody.`,
        rank: 5,
        rating_explanation: '',
        findings: [],
        full_content_json: '{}',
        period: '',
        size: 1,
      }
    }),
  )
  return dir
}

describe('dynamic community selection', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({
      responders: [
        (req) =>
          req.kind === 'dynamic_rating'
            ? JSON.stringify({ reason: 'r', rating: /# Relevant/.test(systemOf(req.body)) ? 5 : 0 })
            : undefined,
      ],
    })
  })
  afterAll(async () => fake?.close())

  async function selected(
    relevant: number[],
    extra = '',
    level = 2,
  ): Promise<{ ids: number[]; rated: number[]; response: string }> {
    const dataDir = await index(relevant)
    fake.requests.length = 0
    const { settings } = fakeProject(fake.baseUrl, extra)
    const result = await globalSearch({
      settings,
      dataDir,
      query: 'q',
      dynamicCommunitySelection: true,
      communityLevel: level,
    })
    const rated = fake.requests
      .filter((r) => r.kind === 'dynamic_rating')
      .map((r) => Number(/report (\d+)/.exec(systemOf(r.body))![1]))
    return {
      ids: (result.context.reports ?? []).map((r) => Number(r.id)).sort(),
      rated: rated.sort(),
      response: result.response,
    }
  }

  it('descends from relevant roots, replacing parents by their relevant children', async () => {
    const r = await selected([0, 2, 5])
    expect(r.rated).toEqual([0, 1, 2, 3, 5])
    expect(r.ids).toEqual([5])
  })

  it('keeps the parents with dynamic_search_keep_parent', async () => {
    expect((await selected([0, 2, 5], 'global_search:\n  dynamic_search_keep_parent: true')).ids).toEqual([0, 2, 5])
  })

  it('stops the descent at the community level', async () => {
    const r = await selected([0, 2, 5], '', 1)
    expect(r.rated).toEqual([0, 1, 2, 3])
    expect(r.ids).toEqual([2])
  })

  it('sweeps the next level when no root is relevant, up to dynamic_search_max_level', async () => {
    const r = await selected([4])
    expect(r.rated).toEqual([0, 1, 2, 3, 4])
    expect(r.ids).toEqual([4])
    const capped = await selected([4], 'global_search:\n  dynamic_search_max_level: 0')
    expect(capped.rated).toEqual([0, 1])
    expect(capped.response).toBe(NO_DATA_ANSWER)
  })

  it('averages repeated ratings', async () => {
    const r = await selected([0], 'global_search:\n  dynamic_search_num_repeats: 3')
    expect(r.rated).toHaveLength(3 * 4)
    expect(r.ids).toEqual([0])
  })
})
