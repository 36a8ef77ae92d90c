/**
 * `graphrag update` with community_reports.update_max_context_change: a community whose context only
 * gained a little keeps its report (renumbered, no model call); the change is measured from the rows
 * the report was written from, so successive updates cannot stretch it past the bound; a report
 * whose rows lost content to a deleted document is always written again, however small the change.
 *
 * The fake model extracts the capitalised names of a text unit and relates each to the next, so each
 * short document below adds known relationship rows to one of two separate clusters.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { COMMUNITIES, COMMUNITY_REPORTS, ENTITIES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

/**
 * Six names, every pair related once (three paths that cover K6). Leiden (with the fake model's
 * weights) makes two level-0 communities of them: ALDA, CORA and BERN, DANE, EDDA, FENN.
 */
const BASE = {
  'a1.txt': 'Alda Bern Fenn Cora Edda Dane.\n',
  'a2.txt': 'Bern Cora Alda Dane Fenn Edda.\n',
  'a3.txt': 'Cora Dane Bern Edda Alda Fenn.\n',
  // The only source of the relationship FENN → DANE (DANE → FENN is another row).
  'd.txt': 'Fenn Dane.\n',
}

interface Snapshot {
  /** Report text (citations as entity titles) of the level-0 community holding `title`. */
  reportOf(title: string): string
  /** Members (titles) of the community holding `title`. */
  membersOf(title: string): string[]
}

async function snapshot(root: string): Promise<Snapshot> {
  const store = new ParquetTableStore(join(root, 'output'))
  const entities = await store.read(ENTITIES)
  const communities = (await store.read(COMMUNITIES)).filter((c) => c.level === 0)
  const reports = await store.read(COMMUNITY_REPORTS)
  const titleById = new Map(entities.map((e) => [e.id, e.title]))
  const titleByHrid = new Map(entities.map((e) => [String(e.human_readable_id), e.title]))
  const community = (title: string) => {
    const c = communities.find((row) => row.entity_ids.some((id) => titleById.get(id) === title))
    if (c === undefined) throw new Error(`no level-0 community holds ${title}`)
    return c
  }
  return {
    reportOf(title) {
      const report = reports.find((r) => r.community === community(title).community)!
      // Written with titles for ids, so a report renumbered to new ids compares equal to the old one.
      return report.full_content_json.replace(/Entities \(([^)]*)\)/g, (_all, ids: string) =>
        ids
          .split(',')
          .map((id) => titleByHrid.get(id.trim()) ?? `?${id}`)
          .join(', '),
      )
    },
    membersOf: (title) =>
      community(title)
        .entity_ids.map((id) => titleById.get(id)!)
        .sort(),
  }
}

describe('graphrag update: reports kept within update_max_context_change', () => {
  let llm: FakeLlm
  const reportCallsSince = (from: number) =>
    llm.requests.slice(from).filter((r) => r.kind === 'community_report').length
  const settings = (maxChange: number) =>
    `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\ncommunity_reports:\n  update_max_context_change: ${maxChange}\n`

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => llm?.close())

  /** A project of BASE with a bound of 0.07, indexed. */
  async function indexedBase(): Promise<string> {
    const files: Record<string, string> = { 'settings.yaml': settings(0.07) }
    for (const [name, text] of Object.entries(BASE)) files[`input/${name}`] = text
    const root = await testdir(files)
    await runIndex({ root, skipValidation: true })
    return root
  }

  async function update(root: string): Promise<{ calls: number; summary: Record<string, number> }> {
    const from = llm.requests.length
    await runUpdate({ root, skipValidation: true, cache: false })
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    return { calls: reportCallsSince(from), summary: stats.workflows.create_community_reports.summary }
  }

  it('keeps a report that gained a row, measures later updates from it, and rewrites it when content is deleted', async () => {
    const root = await indexedBase()
    const exact = await testdir({})
    await cp(root, exact, { recursive: true })
    await writeFile(join(exact, 'settings.yaml'), settings(0))

    const first = await snapshot(root)
    expect(first.membersOf('ALDA')).toEqual(['ALDA', 'CORA'])
    expect(first.membersOf('BERN')).toEqual(['BERN', 'DANE', 'EDDA', 'FENN'])

    // 1. A new relationship row among BERN's community, whose context holds its 4 entities and the 15
    // relationships that touch them: 1 row in 20 changed (0.05 ≤ 0.07), nothing lost.
    for (const dir of [root, exact]) await writeFile(join(dir, 'input', 'e.txt'), 'Fenn Bern.\n')
    const added = await update(root)
    expect(added.calls).toBe(0)
    expect(added.summary.kept_within_change).toBe(1)
    expect(added.summary.max_kept_change).toBeCloseTo(1 / 20, 3)
    const second = await snapshot(root)
    expect(second.membersOf('BERN')).toEqual(first.membersOf('BERN'))
    expect(second.reportOf('BERN')).toBe(first.reportOf('BERN'))
    expect(second.reportOf('ALDA')).toBe(first.reportOf('ALDA'))
    // At 0 the same change is written again, as a full index would.
    const exactAdded = await update(exact)
    expect(exactAdded.calls).toBe(1)
    expect(exactAdded.summary.kept_within_change).toBeUndefined()
    expect((await snapshot(exact)).reportOf('BERN')).not.toBe(first.reportOf('BERN'))

    // 2. One more row: 1 in 21 since the last update, but 2 in 21 (0.095) since the report was written.
    await writeFile(join(root, 'input', 'f.txt'), 'Edda Fenn.\n')
    const again = await update(root)
    expect(again.calls).toBe(1)
    expect(again.summary.kept_within_change).toBe(0)
    const third = await snapshot(root)
    expect(third.membersOf('BERN')).toEqual(first.membersOf('BERN'))
    expect(third.reportOf('BERN')).not.toBe(first.reportOf('BERN'))
    expect(third.reportOf('ALDA')).toBe(first.reportOf('ALDA'))

    // 3. Deleting d.txt takes FENN → DANE with it: 1 row in 21, within the bound, yet the report may
    // repeat what no document says any more, so it is written again.
    await rm(join(root, 'input', 'd.txt'))
    const deleted = await update(root)
    expect(deleted.calls).toBe(1)
    expect(deleted.summary.kept_within_change).toBe(0)
    const fourth = await snapshot(root)
    expect(fourth.membersOf('BERN')).toEqual(first.membersOf('BERN'))
    expect(fourth.reportOf('BERN')).not.toBe(third.reportOf('BERN'))
    expect(fourth.reportOf('ALDA')).toBe(first.reportOf('ALDA'))
  }, 90_000)

  it('still finds the anchor after a plain graphrag index renumbered the report, with the cache gone', async () => {
    const root = await indexedBase()
    const first = await snapshot(root)
    // Names sorted before the others shift every entity id: the next index renumbers the reports.
    await writeFile(join(root, 'input', '00-aside.txt'), 'Zora Vink.\n')
    const from = llm.requests.length
    await runIndex({ root, skipValidation: true })
    expect(reportCallsSince(from)).toBe(0)
    expect((await snapshot(root)).reportOf('BERN')).toBe(first.reportOf('BERN'))

    await rm(join(root, 'cache'), { recursive: true, force: true })
    await writeFile(join(root, 'input', 'e.txt'), 'Fenn Bern.\n')
    const added = await update(root)
    expect(added.calls).toBe(0)
    expect(added.summary.kept_within_change).toBe(1)
    expect((await snapshot(root)).reportOf('BERN')).toBe(first.reportOf('BERN'))
  }, 60_000)

  it('keeps no report written with another word limit: the setting changed, so every report is written again', async () => {
    const root = await indexedBase()
    await writeFile(join(root, 'settings.yaml'), `${settings(0.07)}  max_length: 1500\n`)
    await writeFile(join(root, 'input', 'e.txt'), 'Fenn Bern.\n')
    const added = await update(root)
    expect(added.summary.kept_within_change).toBe(0)
    expect(added.summary.reused_renumbered).toBe(0)
    expect(added.calls).toBe(2)
  }, 60_000)
})
