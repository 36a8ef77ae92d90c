import { existsSync } from 'node:fs'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { interruptProject } from '../support/interrupt-project.js'

interface Exit {
  code: number | null
  stderr: string
  at: number
}

function start(
  args: string[],
  env: Record<string, string | undefined> = {},
): { child: ChildProcess; exit: Promise<Exit> } {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'graphrag.js'), ...args], {
    env: { ...process.env, CI: 'true', NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdout!.resume()
  const exit = new Promise<Exit>((resolve) => child.on('close', (code) => resolve({ code, stderr, at: Date.now() })))
  return { child, exit }
}

async function until(condition: () => boolean, timeoutMs = 20_000): Promise<void> {
  const started = Date.now()
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const project = (fake: FakeLlm) => interruptProject(fake, '03-the-salvage.txt')

describe('Ctrl-C during index (CI=true, no terminal)', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8, latency: { fixedMs: 700 } })
  })
  afterAll(() => fake?.close())

  it('starts no new call, lets calls in flight finish and cache, marks stats.json interrupted, exits 130 with one line', async () => {
    const root = await project(fake)
    const before = fake.requests.length
    const { child, exit } = start(['index', '--root', root, '--method', 'standard', '--skip-validation'])
    await until(() => fake.requests.slice(before).filter((r) => r.kind === 'extract_graph').length >= 3)
    const signalled = Date.now()
    child.kill('SIGINT')
    const result = await exit
    const sent = fake.requests.slice(before)
    expect(result.code).toBe(130)
    const lines = result.stderr.trim().split('\n')
    expect(lines.at(-1)).toMatch(
      /^interrupted: \d+ of \d+ items done \(extract_graph: graph extraction\); run the same command to resume$/,
    )
    expect(result.stderr).not.toContain('failed')
    // Nothing went on the wire after the signal (allowing for a request already leaving), and every request sent was answered.
    expect(sent.filter((r) => r.startedAt > signalled + 100)).toEqual([])
    expect(sent.every((r) => r.status === 200)).toBe(true)
    // The interrupted run's stats stay in its work folder; output/ is published only by a complete run.
    expect(existsSync(join(root, 'output'))).toBe(false)
    const stats = JSON.parse(await readFile(join(root, '.output.run', 'work', 'stats.json'), 'utf8'))
    expect(stats.status).toBe('interrupted')
    expect(stats.workflows.extract_graph.status).toBe('interrupted')
    // The answers paid for before Ctrl-C are cached: the re-run asks the model only for the rest.
    const answered = sent.filter((r) => r.kind === 'extract_graph').length
    // On a fast server (the cache does not depend on api_base), so the rest of the run takes no time.
    const quick = await startFakeLlm({ embeddingDimension: 8 })
    const settings = await readFile(join(root, 'settings.yaml'), 'utf8')
    await writeFile(join(root, 'settings.yaml'), settings.replaceAll(fake.baseUrl, quick.baseUrl))
    const rerun = await runCli(['index', '--root', root, '--method', 'standard', '--skip-validation'])
    await quick.close()
    expect(rerun.code, rerun.stderr).toBe(0)
    const again = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    expect(again.status).toBeUndefined()
    const usage = again.workflows.extract_graph.llm.default_completion_model
    expect(usage.cacheHits).toBeGreaterThanOrEqual(answered)
  }, 60_000)

  it('a second Ctrl-C exits at once', async () => {
    const slow = await startFakeLlm({ embeddingDimension: 8, latency: { fixedMs: 8000 } })
    try {
      const root = await project(slow)
      const { child, exit } = start(['index', '--root', root, '--method', 'standard', '--skip-validation'])
      await until(() => slow.requests.some((r) => r.kind === 'extract_graph'))
      child.kill('SIGINT')
      await new Promise((resolve) => setTimeout(resolve, 200))
      const second = Date.now()
      child.kill('SIGINT')
      const result = await exit
      expect(result.code).toBe(130)
      expect(result.at - second).toBeLessThan(1500)
    } finally {
      await slow.close()
    }
  }, 60_000)
})
