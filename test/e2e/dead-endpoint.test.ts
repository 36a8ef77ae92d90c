import { createServer } from 'node:net'
import { beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml } from '../support/fake-llm/index.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

/** A port nothing listens on: taken from the OS, then released. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

describe('a dead endpoint', () => {
  let base: string
  let root: string
  beforeAll(async () => {
    base = `http://127.0.0.1:${await closedPort()}/v1`
    // The default eight retries with 2 s base delay would take minutes if connection errors were retried.
    const settings = fakeModelSettingsYaml(base, { maxRetries: 8 })
      .replaceAll('base_delay: 0.01', 'base_delay: 2')
      .replaceAll('max_delay: 0.1', 'max_delay: 60')
    root = await testdir({
      'settings.yaml': settings,
      'input/a.txt': 'The lighthouse keeper met the ferry captain at North Pier. '.repeat(20),
    })
  })

  it('index fails within seconds, naming the endpoint', async () => {
    const started = performance.now()
    const run = await runCli(['index', '--root', root, '--method', 'standard'])
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(`cannot reach ${base} (ECONNREFUSED)`)
    expect(performance.now() - started).toBeLessThan(15_000)
  })
})

describeShared('queries against a dead endpoint', () => {
  for (const method of ['global', 'basic', 'local', 'drift']) {
    it(`${method} fails within seconds, naming the endpoint`, async () => {
      const base = `http://127.0.0.1:${await closedPort()}/v1`
      const settings = fakeModelSettingsYaml(base, { maxRetries: 8 })
        .replaceAll('base_delay: 0.01', 'base_delay: 2')
        .replaceAll('max_delay: 0.1', 'max_delay: 60')
      const root = await testdir({ 'settings.yaml': settings })
      const started = performance.now()
      // The first method through a spawned CLI, the others in process (the same command, no start-up each).
      const run = await (method === 'global' ? runCli : runCliInProcess)([
        'query',
        '--root',
        root,
        '--method',
        method,
        '--data',
        sharedPath('reference', 'msgr-v3-dulce'),
        'Who leads the squad?',
      ])
      expect(run.code).toBe(1)
      expect(run.stderr).toContain(`cannot reach ${base} (ECONNREFUSED)`)
      expect(performance.now() - started).toBeLessThan(15_000)
    })
  }

  it('an unknown host fails within seconds, naming it', async () => {
    const dns = await testdir({
      'settings.yaml': fakeModelSettingsYaml('http://no-such-host.invalid/v1', { maxRetries: 8 }).replaceAll(
        'base_delay: 0.01',
        'base_delay: 2',
      ),
    })
    const started = performance.now()
    const run = await runCliInProcess([
      'query',
      '--root',
      dns,
      '--method',
      'basic',
      '--data',
      sharedPath('reference', 'msgr-v3-dulce'),
      'Who keeps the lighthouse?',
    ])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(/cannot reach http:\/\/no-such-host\.invalid\/v1 \((ENOTFOUND|EAI_AGAIN)\)/)
    expect(performance.now() - started).toBeLessThan(15_000)
  })
})
