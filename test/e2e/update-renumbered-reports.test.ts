/**
 * `graphrag update` keeps a community's report when only its human_readable_ids moved: a document
 * added before the others shifts every entity row, yet with the cache disabled the unchanged
 * communities get their earlier reports renumbered (no model call), equal to a full index's.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { COMMUNITY_REPORTS, ENTITIES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const CORPUS = join(PROJECT_ROOT, 'fixtures', 'update-corpus')
const BASE = readdirSync(CORPUS).sort().slice(0, 6)
/** Sorts first and shares no entity with the base documents. */
const ASIDE = { name: '00-aside.txt', text: 'Zora Vink and Pell Amsel tend the Quiet Garden of Brenmoor.\n' }

async function tables(output: string) {
  const store = new ParquetTableStore(output)
  return { entities: await store.read(ENTITIES), reports: await store.read(COMMUNITY_REPORTS) }
}

describe('graphrag update: reports reused across renumbered ids', () => {
  let llm: FakeLlm
  const settings = () => `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\n`
  const reportCallsSince = (from: number) =>
    llm.requests.slice(from).filter((r) => r.kind === 'community_report').length

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => llm?.close())

  it('renumbers the citations of unchanged communities instead of asking the model again', async () => {
    const files: Record<string, string> = { 'settings.yaml': settings() }
    for (const name of BASE) files[`input/${name}`] = readFileSync(join(CORPUS, name), 'utf8')
    const root = await testdir(files)
    await runIndex({ root, skipValidation: true })
    const before = await tables(join(root, 'output'))

    await writeFile(join(root, 'input', ASIDE.name), ASIDE.text)
    const from = llm.requests.length
    await runUpdate({ root, skipValidation: true, cache: false })
    const calls = reportCallsSince(from)
    const after = await tables(join(root, 'output'))

    // The aside's entities come first, so every earlier entity moved.
    const hrid = (rows: typeof before.entities) => new Map(rows.map((e) => [e.title, e.human_readable_id]))
    const [oldIds, newIds] = [hrid(before.entities), hrid(after.entities)]
    expect([...oldIds].filter(([title, id]) => newIds.get(title) !== id).length).toBe(oldIds.size)

    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    const reused = stats.workflows.create_community_reports.summary.reused_renumbered as number
    expect(reused).toBeGreaterThan(0)
    expect(calls + reused).toBe(after.reports.length)

    // A reused report cites the new ids: it equals the report a full index of the same inputs writes.
    const fresh = await testdir({ 'settings.yaml': settings() })
    await cp(join(root, 'input'), join(fresh, 'input'), { recursive: true })
    await runIndex({ root: fresh, skipValidation: true })
    const full = await tables(join(fresh, 'output'))
    const previousTexts = new Set(before.reports.map((r) => r.full_content))
    const renumbered = after.reports.filter(
      (r) => !previousTexts.has(r.full_content) && full.reports.some((f) => f.full_content === r.full_content),
    )
    expect(renumbered.length).toBeGreaterThan(0)
    expect(after.reports.map((r) => r.full_content).sort()).toEqual(full.reports.map((r) => r.full_content).sort())
  }, 60_000)
})
