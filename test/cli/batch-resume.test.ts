/**
 * Batch runs that stop before their batches end (`--no-wait`, kill -9 while polling) and the run
 * after them: nothing is submitted twice, every request is answered once, and the index is built.
 */
import { spawn } from 'node:child_process'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { batchProject, FAST_BATCH_ENV, synchronousCalls } from '../index/batch/project.js'

const INDEX = (root: string) => ['index', '--root', root, '--method', 'standard', '--skip-validation', '--batch']

/** Each request of the index went into exactly one batch and was answered exactly once. */
function expectNoRequestRepeated(fake: FakeLlm): void {
  const ids = fake.batchApi.batches.flatMap((b) => b.customIds)
  expect(new Set(ids).size).toBe(ids.length)
  const answered = fake.requests.filter((r) => r.batchLine !== undefined).map((r) => JSON.stringify(r.body))
  expect(new Set(answered).size).toBe(answered.length)
  expect(synchronousCalls(fake)).toBe(0)
}

async function waitFor(condition: () => boolean, ms = 30_000): Promise<void> {
  const until = performance.now() + ms
  while (!condition()) {
    if (performance.now() > until) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('index --batch that stops before its batches end', () => {
  let fake: FakeLlm | undefined
  afterEach(async () => {
    await fake?.close()
  })

  it('--no-wait exits 75 naming the running batch; the next run collects it and finishes, repeating no request', async () => {
    fake = await startFakeLlm({ embeddingDimension: 8, batch: { pollsBeforeDone: 3 } })
    const root = await batchProject(fake)
    const first = await runCli([...INDEX(root), '--no-wait'], { env: FAST_BATCH_ENV })
    expect(first.code, first.stderr).toBe(75)
    expect(first.stderr).toContain('batch_fake_0')
    expect(first.stderr).toContain('run the same command again')
    expect(fake.batchApi.batches).toHaveLength(1)
    expect(fake.requests.filter((r) => r.batchLine !== undefined)).toHaveLength(0)

    const second = await runCli(INDEX(root), { env: FAST_BATCH_ENV })
    expect(second.code, second.stderr).toBe(0)
    expect(await readdir(join(root, 'output'))).toContain('community_reports.parquet')
    expect(fake.batchApi.batches[0]!.status).toBe('completed')
    const lines = fake.requests.filter((r) => r.batchLine !== undefined).length
    // The second run collected every batch, the first one's included, and every line.
    expect(second.stdout + second.stderr).toMatch(
      new RegExp(
        `Batch API: ${fake.batchApi.batches.length} batches, ${lines} lines answered; \\$[\\d.]+ instead of \\$[\\d.]+ at synchronous prices \\(saved \\$[\\d.]+\\)`,
      ),
    )
    expect(second.stdout + second.stderr).toContain(`${lines}/${lines} lines answered`)
    expectNoRequestRepeated(fake)
  }, 60_000)

  it.each([
    ['kill -9', 'SIGKILL', null],
    ['Ctrl-C', 'SIGINT', 130],
  ] as const)(
    '%s while polling loses nothing: the re-run polls the same batch and submits nothing twice',
    async (_, signal, code) => {
      const batch = { pollsBeforeDone: 1_000_000 }
      fake = await startFakeLlm({ embeddingDimension: 8, batch })
      const root = await batchProject(fake)
      const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'graphrag.js'), ...INDEX(root)], {
        env: { ...process.env, ...FAST_BATCH_ENV, CI: 'true', NO_COLOR: '1' },
        stdio: 'ignore',
      })
      const ended = new Promise((resolve) => child.on('close', (exit) => resolve(exit)))
      await waitFor(() => (fake?.batchApi.batches[0]?.polls ?? 0) >= 3)
      child.kill(signal)
      expect(await ended).toBe(code)
      batch.pollsBeforeDone = 1

      const rerun = await runCli(INDEX(root), { env: FAST_BATCH_ENV })
      expect(rerun.code, rerun.stderr).toBe(0)
      expect(fake.batchApi.batches[0]!.status).toBe('completed')
      expectNoRequestRepeated(fake)
    },
    60_000,
  )
})
