/**
 * `graphrag update` with the cache disabled replays the reports of communities whose context inputs
 * did not change (unchanged-reports.ts: the index records each context's fingerprint beside its
 * report in model_replies), without building their contexts, and its community_reports table equals,
 * row for row, the one the same update writes from the same index stripped of its fingerprints
 * (which builds every context). update_max_context_change is 0 here, so no report is kept stale:
 * replay and renumbering are all that decide; stale keeping is exercised by the operation's test.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { COMMUNITY_REPORTS, MODEL_REPLIES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const CORPUS = join(PROJECT_ROOT, 'fixtures', 'update-corpus')
const NAMES = readdirSync(CORPUS).sort()
const [BASE, ADDED, NEXT] = [NAMES.slice(0, 8), NAMES[8]!, NAMES[9]!]

describe('graphrag update: reports of unchanged communities replayed by fingerprint', () => {
  let llm: FakeLlm
  const settings = () =>
    `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\ncommunity_reports:\n  update_max_context_change: 0\n`
  const reportCallsSince = (from: number) =>
    llm.requests.slice(from).filter((r) => r.kind === 'community_report').length
  const reports = (root: string) => new ParquetTableStore(join(root, 'output')).read(COMMUNITY_REPORTS)
  const reportSummary = async (root: string) =>
    JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8')).workflows.create_community_reports.summary

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => llm?.close())

  it('asks the model only for changed communities and writes the reports the full path writes', async () => {
    const files: Record<string, string> = { 'settings.yaml': settings() }
    for (const name of BASE) files[`input/${name}`] = readFileSync(join(CORPUS, name), 'utf8')
    const root = await testdir(files)
    await runIndex({ root, skipValidation: true })
    // The same index without the fingerprints: every context is built, as before they existed.
    const fullPath = await testdir({ 'settings.yaml': settings() })
    for (const part of ['input', 'output']) await cp(join(root, part), join(fullPath, part), { recursive: true })
    const replies = new ParquetTableStore(join(fullPath, 'output'))
    const stripFingerprints = async () => {
      const recorded = await replies.read(MODEL_REPLIES)
      await replies.write(
        MODEL_REPLIES,
        recorded.filter((r) => !r.key.startsWith('unchanged:')),
      )
      expect((await replies.read(MODEL_REPLIES)).length).toBeLessThan(recorded.length)
    }

    // Twice: the second update replays from the records the first carried into model_replies.
    for (const added of [ADDED, NEXT]) {
      await stripFingerprints()
      for (const dir of [root, fullPath])
        await writeFile(join(dir, 'input', added), readFileSync(join(CORPUS, added), 'utf8'))
      const from = llm.requests.length
      await runUpdate({ root, skipValidation: true, cache: false })
      const calls = reportCallsSince(from)
      const summary = await reportSummary(root)
      expect(summary.reused_unchanged).toBeGreaterThan(0)
      expect(summary.reports_requested).toBe(calls)

      const fromFull = llm.requests.length
      await runUpdate({ root: fullPath, skipValidation: true, cache: false })
      expect(reportCallsSince(fromFull)).toBe(calls)
      const full = await reportSummary(fullPath)
      expect(full.reused_unchanged).toBeUndefined()
      expect(full.reports_requested).toBe(calls + summary.reused_unchanged)
      expect(await reports(root)).toEqual(await reports(fullPath))
    }
  }, 180_000)
})
