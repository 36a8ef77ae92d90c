/**
 * `graphrag update --method fast` with LLM text-unit reports (community_reports.completion_model_id
 * set): reports are reused as graph reports are. A document whose title sorts first shifts every text
 * unit's human_readable_id, yet with the cache disabled every report is its earlier one with its
 * `Sources` citations renumbered (equal to a full index's). Keeping a changed community's report
 * within update_max_context_change: test/index/operations/text-unit-reports.test.ts.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { COMMUNITY_REPORTS, TEXT_UNITS } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const CORPUS = join(PROJECT_ROOT, 'fixtures', 'update-corpus')
const BASE = readdirSync(CORPUS).sort()

async function tables(root: string) {
  const store = new ParquetTableStore(join(root, 'output'))
  return { units: await store.read(TEXT_UNITS), reports: await store.read(COMMUNITY_REPORTS) }
}

/** Each report's text with its Sources citations written as the cited units' texts: comparable across renumbering. */
function citedTexts(t: Awaited<ReturnType<typeof tables>>): string[] {
  const byId = new Map(t.units.map((u) => [String(u.human_readable_id), u.text]))
  return t.reports
    .map((r) =>
      r.full_content.replace(/Sources \(([^)]*)\)/g, (_all, ids: string) =>
        ids
          .split(',')
          .map((id) => JSON.stringify(byId.get(id.trim()) ?? `?${id}`))
          .join(', '),
      ),
    )
    .sort()
}

describe('graphrag update, fast method with LLM text-unit reports', () => {
  let llm: FakeLlm
  // A model report for every community (Microsoft's fast method): reuse is what is tested, not the selection.
  const settings = () =>
    `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\ncommunity_reports:\n  text_units_per_report: 0\n`
  const reportCallsSince = (from: number) =>
    llm.requests.slice(from).filter((r) => r.kind === 'community_report_text').length

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => llm?.close())

  async function update(root: string) {
    const from = llm.requests.length
    await runUpdate({ root, skipValidation: true, cache: false, method: 'fast' })
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    return { calls: reportCallsSince(from), summary: stats.workflows.create_community_reports_text.summary }
  }

  it('renumbers every report across shifted text unit ids instead of asking the model again', async () => {
    const files: Record<string, string> = { 'settings.yaml': settings() }
    for (const name of BASE) files[`input/${name}`] = readFileSync(join(CORPUS, name), 'utf8')
    const root = await testdir(files)
    await runIndex({ root, skipValidation: true, method: 'fast' })
    const before = await tables(root)
    expect(before.reports.length).toBeGreaterThan(1)

    // Sorts first and shares no word with the others: every unit's id moves, no community changes.
    await writeFile(
      join(root, 'input', '00-aside.txt'),
      'Zora Vink and Pell Amsel tend the Quiet Garden of Brenmoor.\n',
    )
    const aside = await update(root)
    const after = await tables(root)
    const shifted = before.units.filter(
      (u) => after.units.find((v) => v.id === u.id)?.human_readable_id !== u.human_readable_id,
    )
    expect(shifted.length).toBe(before.units.length)
    expect(aside.calls).toBe(0)
    expect(aside.summary.reused_renumbered).toBe(after.reports.length)
    expect(citedTexts(after)).toEqual(citedTexts(before))
    // The same reports a full index of the same inputs writes.
    const full = await testdir({ 'settings.yaml': settings() })
    await cp(join(root, 'input'), join(full, 'input'), { recursive: true })
    await runIndex({ root: full, skipValidation: true, method: 'fast' })
    expect(after.reports.map((r) => r.full_content).sort()).toEqual(
      (await tables(full)).reports.map((r) => r.full_content).sort(),
    )
  }, 90_000)
})
