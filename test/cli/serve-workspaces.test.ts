/**
 * `graphrag serve --workspace name=root` (issue 43 item 9), the built CLI: the start lines name each
 * workspace with its URL and never its token, the workspace answers under /w/{name}/ with its own
 * token, and a bad name is refused before anything listens.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const SETTINGS = 'input:\n  type: text\n'
const DOCS_TOKEN = 'docs-secret-token-1'

describe('graphrag serve --workspace (built CLI)', () => {
  it('serves the workspace under /w/{name}/ with its own token, printing its URL and not the token', async () => {
    const main = await testdir({ 'settings.yaml': SETTINGS })
    const docs = await testdir({ 'settings.yaml': SETTINGS, 'input/guide.txt': 'A guide.\n' })
    const child = spawn(
      process.execPath,
      [join(PROJECT_ROOT, 'bin', 'graphrag.js'), 'serve', '--root', main, '--port', '0', '--workspace', `docs=${docs}`],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, GRAPHRAG_SERVER_TOKEN: 'admin-secret-token-1', GRAPHRAG_SERVER_TOKEN_DOCS: DOCS_TOKEN },
      },
    )
    let stderr = ''
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString()
          const match = /workspace docs: .* at (http:\/\/127\.0\.0\.1:\d+)\/w\/docs\//.exec(stderr)
          if (match) resolve(match[1]!)
        })
        child.on('exit', () => reject(new Error(stderr)))
      })
      expect(stderr).toContain(`workspace docs: ${docs} at ${url}/w/docs/`)
      const listing = await fetch(`${url}/w/docs/documents`, { headers: { authorization: `Bearer ${DOCS_TOKEN}` } })
      expect(listing.status).toBe(200)
      expect(((await listing.json()) as { documents: { title: string }[] }).documents.map((d) => d.title)).toEqual([
        'guide.txt',
      ])
      expect((await fetch(`${url}/documents`, { headers: { authorization: `Bearer ${DOCS_TOKEN}` } })).status).toBe(403)
    } finally {
      const exited = new Promise((resolve) => child.on('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    }
    expect(stderr).not.toContain(DOCS_TOKEN)
    expect(stderr).not.toContain('admin-secret-token-1')
    expect(stderr).toMatch(/GET \/w\/docs\/documents 200/)
  })

  it('refuses a workspace name that is not a plain word', async () => {
    const main = await testdir({ 'settings.yaml': SETTINGS })
    const run = await runCli(['serve', '--root', main, '--port', '0', '--workspace', '../up=/tmp'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/--workspace: workspace name "..\/up" is not allowed/)
  })
})
