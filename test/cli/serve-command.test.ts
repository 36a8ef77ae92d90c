import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
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
    const text = await runCli(['diagnostics', '--root', root])
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
})
