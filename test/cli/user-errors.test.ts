import { createServer, type Server } from 'node:net'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../src/cli/main.js'
import { fakeModelSettingsYaml } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

/** Runs the CLI in this process; returns its exit code and what it wrote to stderr. */
async function cli(...args: string[]): Promise<{ code: number; stderr: string }> {
  let stderr = ''
  const spy = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stderr += String(chunk)
    return true
  })
  try {
    return { code: await main(['node', 'graphrag', ...args]), stderr }
  } finally {
    spy.mockRestore()
  }
}

const ALIAS_BOMB = [
  'a: &a ["x","x","x","x","x","x","x","x","x"]',
  'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
  'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
  'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
  'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
  'f: [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
  '',
].join('\n')

describe('user mistakes read as such, with what to change (not "this looks like a bug")', () => {
  let busy: Server | undefined
  afterEach(() => busy?.close())

  it('a YAML alias bomb in settings.yaml', async () => {
    const root = await testdir({ 'settings.yaml': ALIAS_BOMB, 'input/a.txt': 'text' })
    const run = await cli('index', '--root', root, '--dry-run')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^graphrag: .*settings\.yaml: invalid YAML \(its aliases expand too many times.*use fewer aliases/,
    )
    expect(run.stderr).not.toContain('looks like a bug')
  })

  it('a query before any index: one line saying there is no index yet and to run graphrag index', async () => {
    // The models are never called: port 9 (discard) only completes the settings.
    const settings = `${fakeModelSettingsYaml('http://127.0.0.1:9')}vector_store:\n  vector_size: 8\n`
    const root = await testdir({ 'settings.yaml': settings, 'input/a.txt': 'text' })
    for (const method of ['local', 'global', 'drift', 'basic', 'graph', 'hybrid', 'lazy']) {
      const run = await cli('query', '--root', root, '--method', method, 'Who keeps the lighthouse?')
      expect(run.code, method).toBe(1)
      expect(run.stderr, method).toBe(
        `graphrag: no index yet in ${join(root, 'output')}: run \`graphrag index\` first or point --data at the output folder\n`,
      )
    }
  })

  it('a port another program listens on, for graphrag serve', async () => {
    busy = createServer()
    await new Promise<void>((resolve) => busy!.listen(0, '127.0.0.1', resolve))
    const port = (busy.address() as { port: number }).port
    const root = await testdir({ 'settings.yaml': 'vector_store:\n  vector_size: 8\n' })
    const run = await cli('serve', '--root', root, '--port', String(port))
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      `graphrag: cannot listen on 127.0.0.1:${port} (EADDRINUSE): another program uses that port; stop it, or pass --port <n> (0 = any free port) or set server.port in the settings\n`,
    )
  })
})
