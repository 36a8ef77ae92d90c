/**
 * `graphrag update` end to end through the CLI and the fake model server, on the 12 short
 * documents of fixtures/update-corpus: after adding, editing and deleting a document the tables
 * equal a full index of the same inputs (communities as the issue defines it: a valid hierarchy,
 * connected, level-0 modularity within 1 % of the full index's, one report each; the update starts
 * Leiden from the previous communities, so they need not be the full index's), communities the change
 * did not reach keep their ids, LanceDB rows equal table rows, a query answers, and only changed
 * prompts reach the model, with or without the LLM cache.
 */
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import { cp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { describeChanges, runUpdate } from '../../src/index/run/update.js'
import { COMMUNITY_REPORTS, ENTITIES, MODEL_REPLIES, TEXT_UNITS } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { communityShape, exactTables, untouchedCommunities } from '../support/communities.js'
import { comparableTables, lanceRowCounts, parquetHashes, spawnCli } from '../support/index-files.js'
import { runQueryInProcess } from '../support/query-command.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const CORPUS = join(PROJECT_ROOT, 'fixtures', 'update-corpus')
const ALL = readdirSync(CORPUS).sort()
const INITIAL = ALL.slice(0, 10)

async function treeHash(dir: string): Promise<string> {
  const hash = createHash('sha256')
  for (const entry of (await readdir(dir, { recursive: true, withFileTypes: true })).sort((a, b) =>
    join(a.parentPath, a.name).localeCompare(join(b.parentPath, b.name)),
  )) {
    if (!entry.isFile()) continue
    const path = join(entry.parentPath, entry.name)
    hash.update(path.slice(dir.length)).update(await readFile(path))
  }
  return hash.digest('hex')
}

describe('graphrag update', () => {
  let llm: FakeLlm
  let root: string
  const settings = () => `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\n`
  const update = (...flags: string[]) => runCli(['update', '--root', root, '--skip-validation', ...flags])
  /** The same command in process (runCliInProcess: same main() and output, no CLI start-up). */
  const updateInProcess = (...flags: string[]) =>
    runCliInProcess(['update', '--root', root, '--skip-validation', ...flags])
  const chatCallsSince = (from: number) => llm.requests.slice(from).filter((r) => r.kind !== 'embedding')

  /**
   * The tables compared exactly: all but communities and community_reports (see communityShape), and
   * model_replies without the report workflow's rows (other communities, other prompts).
   */
  async function tablesToCompare(dir: string): Promise<Record<string, string>> {
    const out = await exactTables(dir)
    const store = new ParquetTableStore(dir)
    const sha = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex')
    out['model_replies.parquet'] = sha(
      (await store.read(MODEL_REPLIES)).filter((r) => r.workflow !== 'create_community_reports'),
    )
    return out
  }

  /** A full index of the current inputs in a fresh project (its own cache), for comparison. */
  async function fullIndexOfCurrentInputs(): Promise<{ tables: Record<string, string>; dir: string; calls: number }> {
    const fresh = await testdir({ 'settings.yaml': settings() })
    await cp(join(root, 'input'), join(fresh, 'input'), { recursive: true })
    const before = llm.requests.length
    await runIndex({ root: fresh, skipValidation: true })
    return {
      tables: await tablesToCompare(join(fresh, 'output')),
      dir: join(fresh, 'output'),
      calls: chatCallsSince(before).length,
    }
  }

  async function expectEqualsFullIndex(): Promise<{ calls: number; dir: string }> {
    const full = await fullIndexOfCurrentInputs()
    expect(await tablesToCompare(join(root, 'output'))).toEqual(full.tables)
    const [updated, reindexed] = [await communityShape(join(root, 'output')), await communityShape(full.dir)]
    expect(updated.problems).toEqual([])
    expect(reindexed.problems).toEqual([])
    expect(updated.communities.length).toBeGreaterThan(0)
    expect(updated.modularity).toBeGreaterThanOrEqual(0.99 * reindexed.modularity)
    const tables = new ParquetTableStore(join(root, 'output'))
    const vectors = await lanceRowCounts(join(root, 'output', 'lancedb'))
    expect(vectors).toEqual({
      community_full_content: (await tables.read(COMMUNITY_REPORTS)).length,
      entity_description: (await tables.read(ENTITIES)).length,
      text_unit_text: (await tables.read(TEXT_UNITS)).length,
    })
    return full
  }

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
    const files: Record<string, string> = { 'settings.yaml': settings() }
    for (const name of INITIAL) files[`input/${name}`] = readFileSync(join(CORPUS, name), 'utf8')
    root = await testdir(files)
    // In process: the updates below are the CLI runs under test.
    await runIndex({ root, skipValidation: true })
  }, 120_000)
  afterAll(async () => llm?.close())

  it('with nothing changed: says so, calls no model, leaves output/ byte-identical', async () => {
    const before = await treeHash(join(root, 'output'))
    const requests = llm.requests.length
    const run = await update()
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('Index is up to date (0 new, 0 edited, 0 deleted, 10 unchanged document(s))')
    expect(llm.requests.length).toBe(requests)
    expect(await treeHash(join(root, 'output'))).toBe(before)
  }, 60_000)

  it('--dry-run lists the new, edited and deleted documents and estimates the calls', async () => {
    await writeFile(join(root, 'input', ALL[10]!), readFileSync(join(CORPUS, ALL[10]!), 'utf8'))
    await writeFile(join(root, 'input', INITIAL[0]!), 'Captain Olsen sold the Fog Bell to the Maritime Museum.\n')
    await rm(join(root, 'input', INITIAL[1]!))
    const requests = llm.requests.length
    const run = await updateInProcess('--dry-run')
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toContain('Documents: 1 new, 1 edited, 1 deleted, 8 unchanged document(s)')
    expect(run.stdout).toContain(`new     ${ALL[10]}`)
    expect(run.stdout).toContain(`edited  ${INITIAL[0]}`)
    expect(run.stdout).toContain(`deleted ${INITIAL[1]}`)
    expect(run.stdout).toContain('to extract: 2 chunks')
    expect(run.stdout).toMatch(/extract_graph\s+\d+ calls/)
    expect(llm.requests.length).toBe(requests)
    // Back to the indexed inputs for the next tests.
    await rm(join(root, 'input', ALL[10]!))
    await writeFile(join(root, 'input', INITIAL[0]!), readFileSync(join(CORPUS, INITIAL[0]!), 'utf8'))
    await writeFile(join(root, 'input', INITIAL[1]!), readFileSync(join(CORPUS, INITIAL[1]!), 'utf8'))
  })

  it('add 1, edit 1, delete 1: each update equals a full index of the same inputs', async () => {
    const steps: Array<[string, () => Promise<void>]> = [
      ['add', () => writeFile(join(root, 'input', ALL[10]!), readFileSync(join(CORPUS, ALL[10]!), 'utf8'))],
      [
        'edit',
        () =>
          writeFile(
            join(root, 'input', INITIAL[2]!),
            'Ezra Pike closed the Saltmill and opened a Rope Walk on Stone Island.\n',
          ),
      ],
      ['delete', () => rm(join(root, 'input', INITIAL[3]!))],
    ]
    const shares: string[] = []
    const kept: string[] = []
    for (const [label, change] of steps) {
      await change()
      // The CLI once (its summary line); the edit and the delete run the same update in process (no CLI start-up).
      if (label === 'add') {
        const run = await update()
        expect(run.code, `${label}: ${run.stderr}`).toBe(0)
        expect(run.stderr).toMatch(/Updated: 1 new, 0 edited, 0 deleted/)
      } else {
        const result = await runUpdate({ root, skipValidation: true })
        expect(describeChanges(result.changes), label).toMatch(
          label === 'edit' ? /^0 new, 1 edited, 0 deleted/ : /^0 new, 0 edited, 1 deleted/,
        )
      }
      const full = await expectEqualsFullIndex()
      const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
      expect(stats.update[label === 'add' ? 'added' : label === 'edit' ? 'edited' : 'deleted']).toHaveLength(1)
      expect(readdirSync(join(stats.update.backup))).toContain('documents.parquet')
      expect(Object.keys(stats.workflows)).toContain('update_clean_state')
      const reports = stats.workflows.update_community_reports.summary
      shares.push(`${label}: ${reports.reports_regenerated}/${reports.reports}`)
      // Leiden started from the previous communities, and those the change did not reach are put back
      // when it moved them: all of them keep their ids (a full re-cluster of the edit merges two).
      const untouched = await untouchedCommunities(stats.update.backup, join(root, 'output'), full.dir)
      kept.push(`${label}: ${untouched.keptById}/${untouched.untouched} (full index: ${untouched.inFullIndex})`)
      expect(untouched.keptById, label).toBe(untouched.untouched)
      expect(stats.workflows.create_communities.summary.started_from_previous, label).toBe(true)
    }
    console.log(`reports regenerated per update: ${shares.join(', ')}; untouched communities kept: ${kept.join(', ')}`)

    // In process: whether the updated index answers is asked, not the CLI (queried through it in other files).
    const query = await runQueryInProcess(root, 'What did Ezra Pike open?', 'local', { json: false })
    expect(query.stdout.trim().length).toBeGreaterThan(0)
  }, 400_000)

  it('with the LLM cache deleted (and --no-cache): add, edit and delete extract only the changed document, far fewer calls than a full index', async () => {
    const changes: Array<[string, number, () => Promise<void>]> = [
      ['add', 1, () => writeFile(join(root, 'input', ALL[11]!), readFileSync(join(CORPUS, ALL[11]!), 'utf8'))],
      [
        'edit',
        1,
        () =>
          writeFile(
            join(root, 'input', INITIAL[5]!),
            `${readFileSync(join(CORPUS, INITIAL[5]!), 'utf8')}The Harbour Council thanked Marta Quill.\n`,
          ),
      ],
      ['delete', 0, () => rm(join(root, 'input', ALL[11]!))],
    ]
    for (const [label, extracted, change] of changes) {
      await rm(join(root, 'cache'), { recursive: true, force: true })
      await change()
      const before = llm.requests.length
      // The CLI's --no-cache once (its main() in process); the other changes run the update function with cache: false.
      if (label === 'add') {
        const run = await updateInProcess('--no-cache')
        expect(run.code, `${label}: ${run.stderr}`).toBe(0)
      } else await runUpdate({ root, skipValidation: true, cache: false })
      const calls = chatCallsSince(before)
      expect(
        calls.filter((r) => r.kind === 'extract_graph'),
        label,
      ).toHaveLength(extracted)
      const full = await expectEqualsFullIndex()
      const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
      expect(stats.update.reused_model_replies, label).toBeGreaterThan(0)
      expect(calls.length, label).toBeLessThan(full.calls / 2)
    }
  }, 300_000)

  it('kill -9 at several points of an update: output/ stays the previous index and answers; the re-run equals an uninterrupted update', async () => {
    await writeFile(
      join(root, 'input', 'extra-ferry.txt'),
      'The Ferry Albatross gained a second deck; Tobias Reed hired Nora Finch as purser.\n',
    )
    await rm(join(root, 'input', INITIAL[4]!))
    // The same update, never interrupted, on a copy of the project: what the killed one must end up as.
    const twin = await testdir({})
    await cp(root, twin, { recursive: true, preserveTimestamps: true })
    await runUpdate({ root: twin, skipValidation: true })
    const before = await parquetHashes(join(root, 'output'))
    // Each killed run resumes after the workflows the one before finished, so every point is reached.
    // The default suite kills at the first and the last point; the slow drills at all five.
    const points = process.env.GRAPHRAG_SLOW_TESTS
      ? [
          'extract_graph',
          'create_communities',
          'create_community_reports',
          'generate_text_embeddings',
          'update_text_embeddings',
        ]
      : ['extract_graph', 'update_text_embeddings']
    for (const at of points) {
      const run = spawnCli(['update', '--root', root, '--skip-validation'])
      await run.waitFor(new RegExp(`Starting workflow: ${at}`))
      run.child.kill('SIGKILL')
      expect((await run.exited).signal).toBe('SIGKILL')
      expect(await parquetHashes(join(root, 'output')), `killed in ${at}`).toEqual(before)
      // In process: what is asked is whether output/ answers, not the CLI.
      const query = await runQueryInProcess(root, 'Who skippers the Ferry Albatross?', 'local')
      expect(query.stdout.trim().length, `killed in ${at}`).toBeGreaterThan(0)
    }
    const finished = await updateInProcess()
    expect(finished.code, finished.stderr).toBe(0)
    expect(finished.stderr).toMatch(/skipping \d+ finished workflow/)
    expect(await comparableTables(join(root, 'output'))).toEqual(await comparableTables(join(twin, 'output')))
    await expectEqualsFullIndex()
  }, 300_000)
})
