/**
 * A global-search map reply as a reasoning model writes it: thinking first (holding JSON of its
 * own), prose around the answer, and the points list closed with `}}` instead of `}]}`. The points
 * are read (jsonrepair) on the first attempt and reach the reduce step.
 */
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES } from '../../src/model/index.js'
import { globalSearch } from '../../src/query/index.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fakeProject, systemOf } from './support/dulce.js'

const POINT = 'The council voted to keep the winter ferry running'

const MAP_REPLY =
  '<think>\nThe format is {"points": [{"description": "...", "score": 0}]}. Report 1 is about the ferry vote.\n</think>\n' +
  `Here is my answer:\n{"points": [{"description": "${POINT} [Data: Reports (0)]", "score": 80}}}\nHope this helps!`

async function smallIndex(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'graphrag-global-repair-'))
  const store = new ParquetTableStore(dir)
  await store.write(ENTITIES, [
    {
      id: 'e0',
      human_readable_id: 0,
      title: 'HARBOUR COUNCIL',
      type: 'ORGANIZATION',
      description: 'The council',
      text_unit_ids: ['t0'],
      frequency: 1,
      degree: 1,
    },
  ])
  const community = { id: 'c0', human_readable_id: 0, community: 0, level: 0, parent: -1, children: [] }
  await store.write(COMMUNITIES, [
    {
      ...community,
      title: 'Community 0',
      entity_ids: ['e0'],
      relationship_ids: [],
      text_unit_ids: [],
      period: '2026-01-01',
      size: 1,
    },
  ])
  await store.write(COMMUNITY_REPORTS, [
    {
      ...community,
      id: 'r0',
      title: 'Harbour council',
      summary: 'The council and the winter ferry',
      full_content: '# Harbour council\n\nThe council voted on the winter ferry.',
      rank: 5,
      rating_explanation: '',
      findings: [],
      full_content_json: '{}',
      period: '2026-01-01',
      size: 1,
    },
  ])
  return dir
}

describe('global search map replies that need repair', () => {
  let fake: FakeLlm
  let dataDir: string
  beforeAll(async () => {
    dataDir = await smallIndex()
    fake = await startFakeLlm({ responders: [({ kind }) => (kind === 'global_map' ? MAP_REPLY : undefined)] })
  })
  afterAll(async () => fake?.close())

  it('reads the points of a reply wrapped in thinking and prose and closed with the wrong brackets', async () => {
    const { settings } = fakeProject(fake.baseUrl)
    await globalSearch({ settings, dataDir, query: 'What did the council decide about the ferry?' })
    const maps = fake.requests.filter((r) => r.kind === 'global_map')
    expect(maps).toHaveLength(1)
    const reduce = fake.requests.filter((r) => r.kind === 'global_reduce')
    expect(reduce).toHaveLength(1)
    expect(systemOf(reduce[0]!.body)).toContain(POINT)
    expect(systemOf(reduce[0]!.body)).not.toContain('"points"')
  })
})
