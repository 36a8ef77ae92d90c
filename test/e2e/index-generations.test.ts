/**
 * Index generations and the run lock, end to end through the CLI and the fake model server: a
 * failed or killed run leaves the last complete index queryable, a re-run finishes the job, and
 * two runs on one root never overlap.
 */
import { existsSync } from 'node:fs'
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { comparableTables, lanceRowCounts, parquetHashes, spawnCli } from '../support/index-files.js'
import { runQueryInProcess } from '../support/query-command.js'
import { testdir } from '../support/testdir.js'

const DOCS: Record<string, string> = {
  'input/harbour.txt': 'Captain Olsen rang the Fog Bell at Kettle Harbour while Marta Quill counted the boats.',
  'input/council.txt': 'The Harbour Council met Marta Quill and Captain Olsen to discuss the Lighthouse Fund.',
  'input/mill.txt': 'Ezra Pike runs the Saltmill beside Kettle Harbour and sells rope to Captain Olsen.',
}
const EXTRA = {
  'input/storm.txt': 'A storm hit Kettle Harbour; Ezra Pike and the Harbour Council repaired the Lighthouse.',
}

describe('index generations: the last complete index stays queryable', () => {
  const failing = { reports: false }
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({
      embeddingDimension: 8,
      responders: [
        ({ kind }) => {
          if (failing.reports && kind === 'community_report') throw new Error('injected report failure')
          return undefined
        },
      ],
    })
  })
  afterAll(async () => llm?.close())

  const project = (extra: Record<string, string> = {}) =>
    testdir({
      'settings.yaml': `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}vector_store:\n  vector_size: 8\n`,
      ...DOCS,
      ...extra,
    })
  // The three documents indexed once, in process (the first index is not what is tested): the first
  // test and the clean reference run below each continue from a copy of it.
  let indexed: Promise<string> | undefined
  const indexedCopy = async () => {
    indexed ??= (async () => {
      const root = await project()
      await runIndex({ root, skipValidation: true })
      return root
    })()
    const root = await testdir({})
    await cp(await indexed, root, { recursive: true })
    return root
  }
  // The same history without failures or kills: the three documents indexed, then the storm added and
  // indexed again. (Not a fresh index of the final inputs: a run over changed inputs keeps earlier
  // reports whose community content did not change, as an update does.)
  let clean: Promise<{ tables: Record<string, string>; vectors: Record<string, number> }> | undefined
  const cleanRun = () =>
    (clean ??= (async () => {
      // In process: the reference run, not the CLI, is what this builds.
      const root = await indexedCopy()
      await writeFile(join(root, 'input', 'storm.txt'), EXTRA['input/storm.txt'])
      await runIndex({ root, skipValidation: true })
      return {
        tables: await comparableTables(join(root, 'output')),
        vectors: await lanceRowCounts(join(root, 'output', 'lancedb')),
      }
    })())
  const expectSameAsClean = async (root: string) => {
    const { tables, vectors } = await cleanRun()
    expect(await comparableTables(join(root, 'output'))).toEqual(tables)
    expect(await lanceRowCounts(join(root, 'output', 'lancedb'))).toEqual(vectors)
  }
  const index = (root: string) => runCli(['index', '--root', root, '--skip-validation'])
  /** The same command in process (runCliInProcess: same main() and output, no CLI start-up). */
  const indexInProcess = (root: string) => runCliInProcess(['index', '--root', root, '--skip-validation'])
  const query = (root: string, method: string) =>
    runCli(['query', '--root', root, '--method', method, 'Who rang the Fog Bell?'])

  /** Through the CLI once per method at the end; in process (no CLI start-up) after each failure and kill. */
  async function expectQueryable(root: string, methods = ['local', 'basic'], cli = false): Promise<void> {
    for (const method of methods) {
      if (cli) {
        const run = await query(root, method)
        expect(run.code, `${method}: ${run.stderr}`).toBe(0)
        expect(run.stdout.trim().length).toBeGreaterThan(0)
      } else {
        const run = await runQueryInProcess(root, 'Who rang the Fog Bell?', method as 'local' | 'basic')
        expect(run.stdout.trim().length, method).toBeGreaterThan(0)
      }
    }
  }

  it('a failed run, then kill -9 at two points: output/ stays the previous index, queryable; the re-run resumes and equals an uninterrupted run', async () => {
    const root = await indexedCopy()
    const before = await parquetHashes(join(root, 'output'))
    const vectorsBefore = await lanceRowCounts(join(root, 'output', 'lancedb'))
    expect(Object.keys(before)).toContain('text_units.parquet')

    await writeFile(join(root, 'input', 'storm.txt'), EXTRA['input/storm.txt'])
    failing.reports = true
    const failed = await index(root)
    failing.reports = false
    expect(failed.code).toBe(1)
    expect(failed.stderr).toMatch(/create_community_reports failed/)
    expect(await parquetHashes(join(root, 'output'))).toEqual(before)
    expect(await lanceRowCounts(join(root, 'output', 'lancedb'))).toEqual(vectorsBefore)
    await expectQueryable(root)

    for (const at of ['create_community_reports', 'generate_text_embeddings']) {
      const run = spawnCli(['index', '--root', root, '--skip-validation'])
      await run.waitFor(new RegExp(`Starting workflow: ${at}`))
      run.child.kill('SIGKILL')
      expect((await run.exited).signal).toBe('SIGKILL')
      expect(await parquetHashes(join(root, 'output')), `killed in ${at}`).toEqual(before)
      await expectQueryable(root, ['local'])
    }

    const resumed = await indexInProcess(root)
    expect(resumed.code, resumed.stderr).toBe(0)
    expect(resumed.stderr).toMatch(/skipping \d+ finished workflow\(s\)/)
    expect((await parquetHashes(join(root, 'output')))['documents.parquet']).not.toBe(before['documents.parquet'])
    await expectSameAsClean(root)
    expect(existsSync(join(root, '.output.run', 'work'))).toBe(false)
    expect(existsSync(join(root, '.output.run', 'previous'))).toBe(false)
    await expectQueryable(root, ['local', 'basic'], true)
  }, 300_000)

  it('a second run on the same root exits 1 at once naming the PID that holds the lock', async () => {
    // Every answer takes 2 s here, so the first run is still extracting when the second starts.
    const slow = await startFakeLlm({ embeddingDimension: 8, latency: { fixedMs: 2000 } })
    const root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(slow.baseUrl, { maxRetries: 0 })}vector_store:\n  vector_size: 8\n`,
      ...DOCS,
    })
    const first = spawnCli(['index', '--root', root, '--skip-validation'])
    await first.waitFor(/Starting workflow: extract_graph/)
    const second = await index(root)
    expect(second.code).toBe(1)
    // "At once": it did not wait for the lock (the first run, many 2-second calls from its end, still
    // holds it below) and started no workflow. No wall-clock bound: a loaded machine is slow to spawn.
    expect(`${second.stdout}${second.stderr}`).not.toMatch(/Starting workflow/)
    expect(second.stderr).toContain(`PID ${first.child.pid}`)
    expect(second.stderr.split('\n').filter((l) => l.startsWith('graphrag:'))).toHaveLength(1)
    expect(first.child.exitCode).toBeNull()
    first.child.kill('SIGKILL')
    await first.exited
    await slow.close()
  }, 120_000)

  it('takes over the lock of a process that no longer exists, with a notice', async () => {
    const root = await project()
    const dead = { pid: 2 ** 22 + 17, host: hostname(), command: 'graphrag index', started: '2026-01-01T00:00:00.000Z' }
    await mkdir(join(root, '.output.run'))
    await writeFile(join(root, '.output.run', 'lock'), `${JSON.stringify(dead)}\n`)
    const run = await indexInProcess(root)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain(
      `took over the lock ${join(root, '.output.run', 'lock')} from PID ${dead.pid} on host ${dead.host} (\`graphrag index\`, started ${dead.started}), which is no longer running`,
    )
    expect(existsSync(join(root, '.output.run', 'lock'))).toBe(false)
    expect(await readFile(join(root, 'output', 'stats.json'), 'utf8')).toContain('generate_text_embeddings')
  }, 120_000)
})
