/**
 * Ctrl-C while `graphrag index` is still starting (its modules and settings loading, before the
 * run's handler is installed): recorded in the run log and on stderr, exit 130, no model call.
 * Without bin/graphrag.js's early watcher Node ends the process silently (killed by SIGINT).
 */
import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { interruptProject } from '../support/interrupt-project.js'
import { PROJECT_ROOT } from '../support/shared.js'

interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
  stderr: string
}

/** Runs the CLI and sends SIGINT `afterMs` after the spawn. */
function interruptAfter(args: string[], afterMs: number): Promise<Exit> {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'graphrag.js'), ...args], {
    env: { ...process.env, CI: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  child.stdout.resume()
  setTimeout(() => child.kill('SIGINT'), afterMs)
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ code, signal, stderr })))
}

/**
 * SIGINT as early as the CLI can catch it: a signal that lands before Node has run bin/graphrag.js
 * kills the process whatever the code does, so a kill by the signal is tried again a little later
 * (without the early watcher every try ends that way, until the run's own handler answers).
 */
async function interruptEarly(args: string[]): Promise<Exit> {
  let result: Exit | undefined
  for (const afterMs of [150, 300, 600, 1000, 1500]) {
    result = await interruptAfter(args, afterMs)
    if (result.signal === null) return result
  }
  return result!
}

describe('Ctrl-C while index is starting', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(() => fake?.close())

  it('exits 130 with one line, writes the interruption to the run log and calls no model', async () => {
    const root = await interruptProject(fake, '03-the-salvage.txt')
    const before = fake.requests.length
    const result = await interruptEarly(['index', '--root', root, '--skip-validation'])
    expect(result.signal).toBeNull()
    expect(result.code).toBe(130)
    expect(result.stderr.trim().split('\n').at(-1)).toBe(
      'interrupted while starting (SIGINT), before any workflow ran: nothing was done; run the same command to start',
    )
    const log = await readFile(join(root, 'logs', 'indexing-engine.log'), 'utf8')
    expect(log).toMatch(/ - WARNING - graphrag - interrupted while starting \(SIGINT\), before any workflow ran/)
    expect(fake.requests.length).toBe(before)
  }, 30_000)
})
