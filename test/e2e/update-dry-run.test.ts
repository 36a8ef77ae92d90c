/**
 * `graphrag update --dry-run` estimates the reports from the communities the change reaches in the
 * previous index: a delete-only update extracts nothing yet rewrites the reports of the communities
 * that lose the document's mentions, and the dry run says so, calls no model, and its report count is
 * an upper bound on what the real update (cache deleted, --no-cache) then writes.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runUpdate } from '../../src/index/run/update.js'
import { COMMUNITIES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const CORPUS = join(PROJECT_ROOT, 'fixtures', 'update-corpus')
const DOCUMENTS = readdirSync(CORPUS).sort().slice(0, 12)

/** The calls of one workflow's row in the dry run's estimate table (0 when it has no row). */
function estimatedCalls(stdout: string, workflow: string): number {
  const row = new RegExp(`^\\s+${workflow}\\s+([\\d,]+) calls`, 'm').exec(stdout)
  return row === null ? 0 : Number(row[1]!.replaceAll(',', ''))
}

describe('graphrag update --dry-run', () => {
  let llm: FakeLlm
  let indexed: string
  /** The first dry run through a spawned CLI, the others in process (runCliInProcess: same main() and output). */
  let spawned = false
  const update = (root: string, ...flags: string[]) => {
    const run = spawned ? runCliInProcess : runCli
    spawned = true
    return run(['update', '--root', root, '--skip-validation', ...flags])
  }
  /** A copy of the indexed project, so each case starts from the same index. */
  const copy = async () => {
    const root = await testdir({})
    await cp(indexed, root, { recursive: true })
    return root
  }

  beforeAll(async () => {
    llm = await startFakeLlm({ embeddingDimension: 8 })
    const files: Record<string, string> = {
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl)}vector_store:\n  vector_size: 8\n`,
    }
    for (const name of DOCUMENTS) files[`input/${name}`] = readFileSync(join(CORPUS, name), 'utf8')
    indexed = await testdir(files)
    await runIndex({ root: indexed, skipValidation: true })
  }, 120_000)
  afterAll(async () => llm?.close())

  // Two deletions whose re-clustering hands members of a reached community to a neighbour.
  it.each(['04-lighthouse.txt', '08-ferry.txt'])(
    'delete-only (%s): report calls for the communities it reaches, no fewer than the real update then writes',
    async (deleted) => {
      const root = await copy()
      await rm(join(root, 'input', deleted))
      const communities = (await new ParquetTableStore(join(root, 'output')).read(COMMUNITIES)).length
      const requests = llm.requests.length
      const dry = await update(root, '--dry-run')
      expect(dry.code, dry.stderr).toBe(0)
      expect(llm.requests.length).toBe(requests)
      expect(dry.stdout).toContain('Documents: 0 new, 0 edited, 1 deleted, 11 unchanged document(s)')
      expect(dry.stdout).toContain('to extract: 0 chunks')
      const line =
        /^Reports: up to (\d+) of (\d+) communities \(deleted or edited documents reach (\d+); (\d+) more may take members those lose\)$/m
      const reached = line.exec(dry.stdout)
      expect(reached, dry.stdout).not.toBeNull()
      const [count, total, direct, shrinking] = reached!.slice(1).map(Number) as [number, number, number, number]
      expect(total).toBe(communities)
      expect(direct).toBeGreaterThan(0)
      expect(count).toBe(Math.min(total, direct + shrinking))
      expect(dry.stdout).toContain('community_reports.update_max_context_change')
      expect(estimatedCalls(dry.stdout, 'extract_graph')).toBe(0)
      expect(estimatedCalls(dry.stdout, 'create_community_reports')).toBe(count)
      expect(estimatedCalls(dry.stdout, 'generate_text_embeddings')).toBeGreaterThan(0)

      // The real update, with nothing to reuse but the index's own model replies (in process, as
      // `graphrag update --no-cache` runs it: the dry run is the CLI run under test).
      await rm(join(root, 'cache'), { recursive: true, force: true })
      const before = llm.requests.length
      await runUpdate({ root, skipValidation: true, cache: false })
      const reportCalls = llm.requests.slice(before).filter((r) => r.kind === 'community_report').length
      const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
      const regenerated = stats.workflows.update_community_reports.summary.reports_regenerated as number
      console.log(
        `delete ${deleted}: dry run ${count} of ${total} reports (${direct} reached, ${shrinking} neighbours); the update made ${reportCalls} report calls, regenerated ${regenerated}`,
      )
      expect(reportCalls).toBeGreaterThan(0)
      expect(count).toBeGreaterThanOrEqual(reportCalls)
      expect(count).toBeGreaterThanOrEqual(regenerated)
      // stats.json sets the update's own estimate (the dry run's) next to what it used, not a full index's.
      const estimated = (workflow: string) =>
        (stats.estimate as Array<{ workflow: string; estimated: { calls: number } }>).find(
          (w) => w.workflow === workflow,
        )
      expect(estimated('extract_graph')).toBeUndefined()
      expect(estimated('create_community_reports')?.estimated.calls).toBe(count)
    },
    60_000,
  )

  it('an edited document reaches the communities its previous text did, as a deleted one does', async () => {
    const root = await copy()
    const edited = DOCUMENTS[3]!
    await writeFile(join(root, 'input', edited), 'The harbour master keeps a ledger of every boat that enters.\n')
    const requests = llm.requests.length
    const dry = await update(root, '--dry-run')
    expect(dry.code, dry.stderr).toBe(0)
    expect(llm.requests.length).toBe(requests)
    expect(dry.stdout).toContain('Documents: 0 new, 1 edited, 0 deleted, 11 unchanged document(s)')
    const reached =
      /^Reports: up to (\d+) of (\d+) communities \(deleted or edited documents reach (\d+); (\d+) more may take members those lose\)$/m.exec(
        dry.stdout,
      )
    expect(reached, dry.stdout).not.toBeNull()
    // The communities holding the entities of the document's previous chunks.
    expect(Number(reached![3])).toBeGreaterThan(0)
  })

  it('an index without a communities table: says the reach is unknown and falls back to the changed documents', async () => {
    const root = await copy()
    await rm(join(root, 'output', 'communities.parquet'))
    await rm(join(root, 'input', DOCUMENTS[0]!))
    const requests = llm.requests.length
    const dry = await update(root, '--dry-run')
    expect(dry.code, dry.stderr).toBe(0)
    expect(llm.requests.length).toBe(requests)
    expect(dry.stdout).toContain(
      'Reports: the previous index has no communities table(s), so the communities the change reaches are unknown',
    )
    expect(dry.stdout).toContain('Estimated model usage (heuristic: the new and edited documents alone;')
  }, 30_000)
})
