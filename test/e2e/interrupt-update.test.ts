import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { interruptProject } from '../support/interrupt-project.js'

/** Ctrl-C during `graphrag update` behaves as during `graphrag index` (interrupt.test.ts). */
describe.skipIf(!process.env.GRAPHRAG_SLOW_TESTS)(
  'Ctrl-C during update (CI=true, no terminal; GRAPHRAG_SLOW_TESTS=1: ~50-70 s)',
  () => {
    let fake: FakeLlm
    let slow = false
    beforeAll(async () => {
      fake = await startFakeLlm({ embeddingDimension: 8, latency: { extraMs: () => (slow ? 700 : 0) } })
    })
    afterAll(() => fake?.close())

    it('starts no new call, caches the calls in flight, marks stats.json interrupted, exits 130 with one line', async () => {
      const root = await interruptProject(fake, '03-the-salvage.txt')
      const base = await runCli(['index', '--root', root, '--method', 'standard', '--skip-validation'])
      expect(base.code, base.stderr).toBe(0)
      const added = await readFile(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', '04-the-hearing.txt'), 'utf8')
      await writeFile(join(root, 'input', '04-the-hearing.txt'), added.slice(0, 3000))
      const published = await readFile(join(root, 'output', 'stats.json'), 'utf8')

      slow = true
      const before = fake.requests.length
      const child = spawn(
        process.execPath,
        [join(PROJECT_ROOT, 'bin', 'graphrag.js'), 'update', '--root', root, '--skip-validation'],
        {
          env: { ...process.env, CI: 'true', NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
      child.stdout.resume()
      const exit = new Promise<number | null>((resolve) => child.on('close', resolve))
      const extractions = () => fake.requests.slice(before).filter((r) => r.kind === 'extract_graph').length
      const started = Date.now()
      while (extractions() < 3) {
        if (Date.now() - started > 30_000) throw new Error(`no extraction started: ${stderr}`)
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
      const signalled = Date.now()
      child.kill('SIGINT')
      const code = await exit
      slow = false
      const sent = fake.requests.slice(before)
      expect(code, stderr).toBe(130)
      expect(stderr.trim().split('\n').at(-1)).toMatch(
        /^interrupted: \d+ of \d+ items done \(extract_graph: graph extraction\); run the same command to resume$/,
      )
      expect(stderr).not.toContain('failed')
      expect(sent.filter((r) => r.startedAt > signalled + 100)).toEqual([])
      expect(sent.every((r) => r.status === 200)).toBe(true)
      // output/ still holds the index the update started from; the interrupted run's stats are in its work folder.
      expect(await readFile(join(root, 'output', 'stats.json'), 'utf8')).toBe(published)
      const stats = JSON.parse(await readFile(join(root, '.output.run', 'work', 'stats.json'), 'utf8'))
      expect(stats.status).toBe('interrupted')
      expect(stats.workflows.extract_graph.status).toBe('interrupted')

      // The re-run pays only for the rest: every answer received before Ctrl-C comes from the cache.
      const answered = sent.filter((r) => r.kind === 'extract_graph').length
      const rerun = await runCli(['update', '--root', root, '--skip-validation'])
      expect(rerun.code, rerun.stderr).toBe(0)
      const again = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
      expect(again.status).toBeUndefined()
      expect(again.workflows.extract_graph.llm.default_completion_model.cacheHits).toBeGreaterThanOrEqual(answered)
      expect(existsSync(join(root, '.output.run', 'work'))).toBe(false)
    }, 240_000)
  },
)
