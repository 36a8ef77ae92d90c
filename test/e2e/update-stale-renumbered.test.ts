/**
 * `graphrag update` keeps a report within update_max_context_change while every id moves: a document
 * sorted first brings two new entities, so every earlier entity's human_readable_id shifts, and the
 * kept report must be read through the previous generation's ids and written with the new ones.
 * (create_community_reports reads the previous entities once and hands them to both uses.)
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

/** Two level-0 communities with the fake model: ALDA, CORA and BERN, DANE, EDDA, FENN. */
const BASE = {
  'a1.txt': 'Alda Bern Fenn Cora Edda Dane.\n',
  'a2.txt': 'Bern Cora Alda Dane Fenn Edda.\n',
  'a3.txt': 'Cora Dane Bern Edda Alda Fenn.\n',
  'd.txt': 'Fenn Dane.\n',
}

/** The report of the level-0 community holding `title`, its entity citations written as titles. */
async function reportOf(root: string, title: string): Promise<{ text: string; ids: Map<string, number> }> {
  const store = new ParquetTableStore(join(root, 'output'))
  const entities = await store.read(ENTITIES)
  const titleById = new Map(entities.map((e) => [e.id, e.title]))
  const titleByHrid = new Map(entities.map((e) => [String(e.human_readable_id), e.title]))
  const community = (await store.read(COMMUNITIES)).find(
    (c) => c.level === 0 && c.entity_ids.some((id) => titleById.get(id) === title),
  )!
  const report = (await store.read(COMMUNITY_REPORTS)).find((r) => r.community === community.community)!
  const text = report.full_content.replace(/Entities \(([^)]*)\)/g, (_all, ids: string) =>
    ids
      .split(',')
      .map((id) => titleByHrid.get(id.trim()) ?? `?${id}`)
      .join(', '),
  )
  return { text, ids: new Map(entities.map((e) => [e.title, e.human_readable_id])) }
}

describe('graphrag update: a report kept stale across renumbered ids', () => {
  let llm: FakeLlm

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => llm?.close())

  it('keeps the report, citing the same entities under their new ids', async () => {
    const files: Record<string, string> = {
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\ncommunity_reports:\n  update_max_context_change: 0.07\n`,
    }
    for (const [name, text] of Object.entries(BASE)) files[`input/${name}`] = text
    const root = await testdir(files)
    await runIndex({ root, skipValidation: true })
    const before = await reportOf(root, 'BERN')

    // One new relationship row in BERN's community (1 in 20, within 0.07), and a document sorted
    // first whose two entities take the first ids.
    await writeFile(join(root, 'input', 'e.txt'), 'Fenn Bern.\n')
    await writeFile(join(root, 'input', '0-aside.txt'), 'Zora Vink.\n')
    await runUpdate({ root, skipValidation: true, cache: false })
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    const summary = stats.workflows.create_community_reports.summary
    const after = await reportOf(root, 'BERN')

    expect(after.ids.get('BERN')).not.toBe(before.ids.get('BERN'))
    expect(summary.kept_within_change).toBe(1)
    expect(after.text).toBe(before.text)
    expect(after.text).not.toContain('?')
  }, 90_000)
})
