/**
 * The update issue's cost bounds, through the CLI on the 20 documents of fixtures/update-corpus: with
 * the LLM cache deleted before each update (and --no-cache), adding the 20th document, editing one and
 * deleting one each costs at most 10 % of a cold full index's chat calls and regenerates at most 30 %
 * of the community reports. The edit puts a sentence at the start of the document, where the test
 * model (which extracts a chunk's first names) sees it, as bench:update does.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const CORPUS = join(PROJECT_ROOT, 'fixtures', 'update-corpus')
const ALL = readdirSync(CORPUS).sort()

describe('graphrag update: calls and reports of a one-document change on 20 documents', () => {
  let llm: FakeLlm
  const settings = () => `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\n`
  const chatCallsSince = (from: number) =>
    llm.requests.slice(from).filter((r) => r.kind !== 'embedding' && r.kind !== 'models')

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => llm?.close())

  async function project(names: readonly string[]): Promise<string> {
    const files: Record<string, string> = { 'settings.yaml': settings() }
    for (const name of names) files[`input/${name}`] = readFileSync(join(CORPUS, name), 'utf8')
    return testdir(files)
  }

  it('add, edit and delete each stay within 10 % of a full index’s calls and 30 % of its reports', async () => {
    const cold = await project(ALL)
    let from = llm.requests.length
    const full = await runCli(['index', '--root', cold, '--skip-validation'])
    expect(full.code, full.stderr).toBe(0)
    const fullCalls = chatCallsSince(from).length

    const root = await project(ALL.slice(0, 19))
    const first = await runCli(['index', '--root', root, '--skip-validation'])
    expect(first.code, first.stderr).toBe(0)
    const edited = readFileSync(join(CORPUS, ALL[4]!), 'utf8')
    const changes: Array<[string, () => Promise<void>]> = [
      ['add', () => writeFile(join(root, 'input', ALL[19]!), readFileSync(join(CORPUS, ALL[19]!), 'utf8'))],
      [
        'edit',
        () => writeFile(join(root, 'input', ALL[4]!), `The Harbour choir sang at the Lantern Festival.\n${edited}`),
      ],
      ['delete', () => rm(join(root, 'input', ALL[6]!))],
    ]
    const seen: string[] = []
    for (const [label, change] of changes) {
      await rm(join(root, 'cache'), { recursive: true, force: true })
      await change()
      from = llm.requests.length
      const run = await runCli(['update', '--root', root, '--skip-validation', '--no-cache'])
      expect(run.code, `${label}: ${run.stderr}`).toBe(0)
      const calls = chatCallsSince(from).length
      const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
      const reports = stats.workflows.update_community_reports.summary
      // The command says what became of the reports: the report calls it made (as the server saw them)
      // apart from the reports that read differently (a report asked again may come back word for word).
      const reportCalls = llm.requests.slice(from).filter((r) => r.kind === 'community_report').length
      expect(run.stderr).toContain(`of ${reports.reports} asked of the model (${reportCalls} model call(s) made)`)
      expect(run.stderr).toContain(`; ${reports.reports_regenerated} read differently from the previous index's`)
      seen.push(`${label}: ${calls}/${fullCalls} calls, ${reports.reports_regenerated}/${reports.reports} reports`)
      expect(calls, seen.join('; ')).toBeGreaterThan(0)
      expect(calls / fullCalls, seen.join('; ')).toBeLessThanOrEqual(0.1)
      expect(reports.reports_regenerated / reports.reports, seen.join('; ')).toBeLessThanOrEqual(0.3)
    }
    console.log(`one-document updates on 20 documents: ${seen.join('; ')}`)
  }, 120_000)
})
