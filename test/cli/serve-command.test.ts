import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const OFFLINE = [
  'embedding_models:',
  '  default_embedding_model:',
  '    model_provider: local',
  '    model: hashing-384',
  '    dimensions: 384',
  'completion_models:',
  '  default_completion_model:',
  '    model_provider: openai',
  '    model: gpt-4.1-mini',
  '    api_key: sk-do-not-print',
  '    api_base: http://127.0.0.1:9/v1',
  '    retry:',
  '      max_retries: 0',
  '',
].join('\n')

describe('graphrag diagnostics and serve (built CLI)', () => {
  it('diagnostics --json prints the report with secrets masked, and exits 1 when a model is unreachable', async () => {
    const root = await testdir({ 'settings.yaml': OFFLINE })
    const run = await runCli(['diagnostics', '--json', '--root', root])
    expect(run.code, run.stderr).toBe(1)
    expect(run.stdout).not.toContain('sk-do-not-print')
    const report = JSON.parse(run.stdout) as {
      index: { present: boolean }
      models: Array<{ id: string; reachable: boolean }>
    }
    expect(report.index.present).toBe(false)
    expect(report.models.map((m) => [m.id, m.reachable])).toEqual([
      ['default_completion_model', false],
      ['default_embedding_model', true],
    ])
    const text = await runCliInProcess(['diagnostics', '--root', root])
    expect(text.stdout).toContain('default_completion_model')
    expect(text.stdout).toContain('NOT reachable')
  })

  it('serve refuses another address without GRAPHRAG_SERVER_TOKEN, and serves /health on loopback', async () => {
    const root = await testdir({ 'settings.yaml': OFFLINE })
    const refused = await runCli(['serve', '--root', root, '--host', '0.0.0.0', '--port', '0'], {
      env: { GRAPHRAG_SERVER_TOKEN: undefined },
    })
    expect(refused.code).toBe(1)
    expect(refused.stderr).toContain('GRAPHRAG_SERVER_TOKEN')
    const child = spawn(
      process.execPath,
      [join(PROJECT_ROOT, 'bin', 'graphrag.js'), 'serve', '--root', root, '--port', '0'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let stderr = ''
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString()
          const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)
          if (match) resolve(match[1]!)
        })
        child.on('exit', () => reject(new Error(stderr)))
      })
      expect(await (await fetch(`${url}/health`)).json()).toMatchObject({ status: 'ok' })
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
  })

  it('serve prints the web UI URL, logs each request and each job without tokens or query strings; --quiet keeps only the job lines', async () => {
    const root = await testdir({ 'settings.yaml': OFFLINE, 'input/a.txt': 'Marley was dead, to begin with.' })
    const token = 'log-token-do-not-print'
    const loud = await startedServe(root, token, [])
    try {
      expect(loud.stderr()).toContain(`web UI: ${loud.url}/`)
      const auth = { authorization: `Bearer ${token}` }
      expect((await fetch(`${loud.url}/openapi.json?api_key=query-secret`, { headers: auth })).status).toBe(200)
      expect((await fetch(`${loud.url}/cache/stats`)).status).toBe(401)
      const job = await fetch(`${loud.url}/index`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json' },
        body: '{"mode":"index"}',
      })
      const { job: id } = (await job.json()) as { job: string }
      await loud.waitFor(new RegExp(`job ${id} (done|failed)`))
      const log = loud.stderr()
      expect(log).toMatch(/GET \/openapi\.json 200 \d+ ms/)
      expect(log).toMatch(/GET \/cache\/stats 401 \d+ ms/)
      expect(log).toMatch(/POST \/index 202 \d+ ms/)
      expect(log).toContain(`job ${id} started: index`)
      expect(log).not.toContain(token)
      expect(log).not.toContain('query-secret')
    } finally {
      await loud.stop()
    }
    const quiet = await startedServe(root, token, ['--quiet'])
    try {
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
      expect((await fetch(`${quiet.url}/openapi.json`, { headers: auth })).status).toBe(200)
      const job = await fetch(`${quiet.url}/index`, { method: 'POST', headers: auth, body: '{"mode":"index"}' })
      const { job: id } = (await job.json()) as { job: string }
      await quiet.waitFor(new RegExp(`job ${id} (done|failed)`))
      expect(quiet.stderr()).toContain(`job ${id} started`)
      expect(quiet.stderr()).not.toMatch(/ (GET|POST) \//)
    } finally {
      await quiet.stop()
    }
  }, 60_000)
})

/** `graphrag serve` (built CLI) on a free port, its stderr collected; `stop` expects a clean exit. */
async function startedServe(root: string, token: string, flags: string[]) {
  const child = spawn(
    process.execPath,
    [join(PROJECT_ROOT, 'bin', 'graphrag.js'), 'serve', '--root', root, '--port', '0', ...flags],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, GRAPHRAG_SERVER_TOKEN: token } },
  )
  let stderr = ''
  const waiters: Array<() => void> = []
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString()
    for (const wake of waiters.splice(0)) wake()
  })
  child.on('exit', () => {
    for (const wake of waiters.splice(0)) wake()
  })
  const waitFor = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const match = pattern.exec(stderr)
      if (match !== null) return match
      if (child.exitCode !== null) throw new Error(`serve exited: ${stderr}`)
      await new Promise<void>((resolve) => waiters.push(resolve))
    }
  }
  const url = (await waitFor(/at (http:\/\/127\.0\.0\.1:\d+)/))[1]!
  await waitFor(/web UI: /)
  return {
    url,
    waitFor,
    stderr: () => stderr,
    stop: async () => {
      const exited = new Promise((resolve) => child.on('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    },
  }
}
