import { spawn } from 'node:child_process'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { interruptProject } from '../support/interrupt-project.js'

// util-linux `script` gives the CLI a pseudo-terminal, so the spinner runs and Ctrl-C arrives as the
// byte 0x03 typed on the terminal: only a terminal not left in raw mode turns it into SIGINT.
const SCRIPT = '/usr/bin/script'

describe.runIf(process.platform === 'linux')('Ctrl-C on a terminal while the spinner runs', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8, latency: { fixedMs: 600 } })
  })
  afterAll(() => fake?.close())

  it('stops the run (exit 130) instead of being swallowed by the spinner', async () => {
    const root = await interruptProject(fake, '04-the-hearing.txt')
    const command = `stty cols 100 rows 30; exec "${process.execPath}" "${join(PROJECT_ROOT, 'bin', 'graphrag.js')}" index --root "${root}" --method standard --skip-validation`
    const env: Record<string, string | undefined> = { ...process.env, NO_COLOR: '1', TERM: 'xterm' }
    delete env.CI
    const child = spawn(SCRIPT, ['-qfec', command, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output += d.toString()))
    child.stderr.on('data', (d: Buffer) => (output += d.toString()))
    const exit = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
    const started = Date.now()
    while (!fake.requests.some((r) => r.kind === 'extract_graph')) {
      if (Date.now() - started > 20_000) throw new Error(`no extraction request; output so far:\n${output}`)
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    // The spinner is up (it started with the workflow); type Ctrl-C.
    child.stdin.write('\x03')
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
    const code = await exit
    clearTimeout(timer)
    expect(output).toContain('extract_graph')
    expect(code, output).toBe(130)
    expect(output).toMatch(/interrupted: \d+ of \d+ items done/)
    // The interrupted run's stats.json is in its work folder: output/ only ever holds a complete index.
    const stats = JSON.parse(await readFile(join(root, '.output.run', 'work', 'stats.json'), 'utf8'))
    expect(stats.status).toBe('interrupted')
  }, 60_000)
})
