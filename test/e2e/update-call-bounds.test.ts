/**
 * The update issue's cost bounds, through the CLI on the 20 documents of fixtures/update-corpus: with
 * the LLM cache deleted before each update (and --no-cache), adding the 20th document, editing one,
 * deleting one and replacing one's whole text by another's each costs at most 10 % of a cold full
 * index's chat calls and regenerates at most 30 % of the community reports; the replacement costs no
 * more than a delete and an add. The edit puts a sentence at the start of the document, where the test
 * model (which extracts a chunk's first names) sees it, as bench:update does. The add also keeps the
 * communities it did not reach under their ids (once test/e2e/update-communities.test.ts, which
 * built the same two indexes again).
 */
import { readdirSync, readFileSync } from 'node:fs'
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { runCli } from '../support/cli.js'
import { communityShape, untouchedCommunities } from '../support/communities.js'
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

  /**
   * Adding the 20th document keeps the communities the change did not reach under their ids, more of
   * them than the full index of the 20 has (Leiden starts from the previous communities), and the
   * result passes the update issue's test: valid hierarchy, connected, level-0 modularity within 1 %.
   */
  async function expectUnreachedCommunitiesKept(
    stats: { update: { backup: string }; workflows: Record<string, { summary: Record<string, unknown> }> },
    updated: string,
    full: string,
  ): Promise<void> {
    const summary = stats.workflows.create_communities!.summary
    expect(summary.started_from_previous).toBe(true)
    // The previous communities projected onto the new graph, or re-clustered only where the change
    // reached them: never a whole-graph run.
    expect(['kept', 'local']).toContain(summary.clustering)
    const untouched = await untouchedCommunities(stats.update.backup, updated, full)
    expect(untouched.untouched).toBeGreaterThan(0)
    expect(untouched.keptById).toBe(untouched.untouched)
    expect(untouched.inFullIndex).toBeLessThan(untouched.untouched)
    expect(summary.communities_kept_number).toBeGreaterThanOrEqual(untouched.keptById)
    expect(stats.workflows.update_communities!.summary.communities_unchanged).toBe(summary.communities_kept_number)
    const [after, reindexed] = [await communityShape(updated), await communityShape(full)]
    expect(after.problems).toEqual([])
    expect(after.modularity).toBeGreaterThanOrEqual(0.99 * reindexed.modularity)
  }

  it('add, edit and delete each stay within 10 % of a full index’s calls and 30 % of its reports; the add keeps the communities it did not reach', async () => {
    const cold = await project(ALL)
    let from = llm.requests.length
    // Both indexes in process: the updates below are the CLI runs under test.
    await runIndex({ root: cold, skipValidation: true })
    const fullCalls = chatCallsSince(from).length

    const root = await project(ALL.slice(0, 19))
    await runIndex({ root, skipValidation: true })
    const edited = readFileSync(join(CORPUS, ALL[4]!), 'utf8')
    const changes: Array<[string, () => Promise<void>]> = [
      ['add', () => writeFile(join(root, 'input', ALL[19]!), readFileSync(join(CORPUS, ALL[19]!), 'utf8'))],
      [
        'edit',
        () => writeFile(join(root, 'input', ALL[4]!), `The Harbour choir sang at the Lantern Festival.\n${edited}`),
      ],
      ['delete', () => rm(join(root, 'input', ALL[6]!))],
      // Issue 46 item 9: one document's whole text replaced by another's costs no more than deleting
      // one document and adding one.
      ['replace', () => writeFile(join(root, 'input', ALL[2]!), readFileSync(join(CORPUS, ALL[9]!), 'utf8'))],
    ]
    const seen: string[] = []
    const callsOf: Record<string, number> = {}
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
      expect(run.stderr).toContain(`of ${reports.reports} asked of the model (${reportCalls} model call(s) made, `)
      expect(run.stderr).toContain(`; ${reports.reports_regenerated} read differently from the previous index's`)
      seen.push(`${label}: ${calls}/${fullCalls} calls, ${reports.reports_regenerated}/${reports.reports} reports`)
      callsOf[label] = calls
      expect(calls, seen.join('; ')).toBeGreaterThan(0)
      expect(calls / fullCalls, seen.join('; ')).toBeLessThanOrEqual(0.1)
      expect(reports.reports_regenerated / reports.reports, seen.join('; ')).toBeLessThanOrEqual(0.3)
      // The cold index is the full index of the 20 documents the add leads to.
      if (label === 'add') await expectUnreachedCommunitiesKept(stats, join(root, 'output'), join(cold, 'output'))
    }
    expect(callsOf.replace, seen.join('; ')).toBeLessThanOrEqual(callsOf.delete! + callsOf.add!)
    console.log(`one-document updates on 20 documents: ${seen.join('; ')}`)
  }, 300_000)

  // Issue 28 item 7 measured an edit at 39 calls against delete 11 + add 16, on 20 documents with the
  // cache deleted. Re-measured in the same scenario (all 20 documents, one document's whole text
  // replaced by new text): edit 7 calls against delete 3 + add 4 with the text below (2 extraction and 5
  // report calls against 0 + 3 and 2 + 2), 13 against 8 + 5 on 20 generated documents of ~1,500 tokens,
  // 12 against 8 + 4 on A Christmas Carol in 20 parts. A slow drill.
  it.skipIf(!process.env.GRAPHRAG_SLOW_TESTS)(
    'a whole-document edit costs at most deleting the document and adding the new text, kind by kind',
    async () => {
      const base = await project(ALL)
      await runIndex({ root: base, skipValidation: true })
      const copy = async () => {
        const dir = await mkdtemp(`${base}-copy-`)
        await cp(base, dir, { recursive: true })
        return dir
      }
      /** Chat calls of one update with the cache deleted (model_replies answers only), by kind. */
      const update = async (root: string) => {
        await rm(join(root, 'cache'), { recursive: true, force: true })
        const from = llm.requests.length
        await runUpdate({ root, skipValidation: true, cache: false })
        const calls = chatCallsSince(from)
        const of = (kind: string) => calls.filter((r) => r.kind.startsWith(kind)).length
        return { all: calls.length, extraction: of('extract_'), summaries: of('summarize'), reports: of('community') }
      }
      const replacement =
        'The ferry captain Mara Quill repaired the old lighthouse lamp with the museum keeper Ansel Dray.\n' +
        'Later the Harbour choir sang at the Lantern Festival, and the bakery fed the regatta crews.\n'
      const target = ALL[4]!
      const edited = await copy()
      await writeFile(join(edited, 'input', target), replacement)
      const edit = await update(edited)
      const apart = await copy()
      await rm(join(apart, 'input', target))
      const deleted = await update(apart)
      await writeFile(join(apart, 'input', target), replacement)
      const added = await update(apart)
      const seen = `edit ${JSON.stringify(edit)}, delete ${JSON.stringify(deleted)}, add ${JSON.stringify(added)}`
      expect(edit.all, seen).toBeGreaterThan(0)
      for (const kind of ['all', 'extraction', 'summaries', 'reports'] as const)
        expect(edit[kind], `${kind}: ${seen}`).toBeLessThanOrEqual(deleted[kind] + added[kind])
      console.log(`whole-document edit on 20 documents: ${seen}`)
    },
    120_000,
  )
})
