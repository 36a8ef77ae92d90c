import { execFileSync, spawn } from 'node:child_process'
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { describeShared, PROJECT_ROOT, sharedPath } from '../support/shared.js'
import { DULCE_DIMENSION, fakeProject } from '../query/support/dulce.js'

/** Newest modification time under a folder (files only). */
function newest(dir: string): number {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((t, e) => Math.max(t, statSync(join(e.parentPath, e.name)).mtimeMs), 0)
}

/**
 * Builds dist/ unless it is newer than src/ (`npm test` builds first); undefined when the CLI can
 * run, else why not (then the tests skip visibly).
 */
function buildCli(): string | undefined {
  const built = join(PROJECT_ROOT, 'dist', 'cli', 'query.js')
  if (existsSync(built) && statSync(built).mtimeMs >= newest(join(PROJECT_ROOT, 'src'))) return undefined
  try {
    execFileSync(
      process.execPath,
      [join(PROJECT_ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'],
      { cwd: PROJECT_ROOT, stdio: 'pipe' },
    )
  } catch (error) {
    const out = String((error as { stdout?: Buffer }).stdout ?? '')
    if (
      !existsSync(join(PROJECT_ROOT, 'dist', 'cli', 'main.js')) ||
      !existsSync(join(PROJECT_ROOT, 'dist', 'query', 'index.js'))
    ) {
      return `dist/ could not be built: ${out.split('\n')[0]}`
    }
  }
  return existsSync(join(PROJECT_ROOT, 'dist', 'cli', 'query.js')) ? undefined : 'dist/cli/query.js is missing'
}

interface HoldingRelay {
  baseUrl: string
  /** Settles once a streamed reply has been sent halfway. */
  held: Promise<void>
  /** Sends the rest of every held reply. */
  release(): void
  close(): Promise<void>
}

/** A relay in front of the fake server that sends each streamed reply only halfway until release(). */
async function startHoldingRelay(target: string): Promise<HoldingRelay> {
  const origin = new URL(target).origin
  let onHeld = () => {}
  const held = new Promise<void>((resolve) => (onHeld = resolve))
  let release = () => {}
  const released = new Promise<void>((resolve) => (release = resolve))
  const server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = []
      for await (const chunk of req) chunks.push(chunk as Buffer)
      const upstream = await fetch(`${origin}${req.url ?? '/'}`, {
        method: req.method,
        headers: { 'content-type': 'application/json' },
        body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
      })
      const type = upstream.headers.get('content-type') ?? 'application/json'
      res.writeHead(upstream.status, { 'content-type': type })
      if (!type.startsWith('text/event-stream')) return void res.end(Buffer.from(await upstream.arrayBuffer()))
      const events = (await upstream.text()).split('\n\n').filter((e) => e !== '')
      const half = Math.floor(events.length / 2)
      for (const e of events.slice(0, half)) res.write(`${e}\n\n`)
      onHeld()
      await released
      for (const e of events.slice(half)) res.write(`${e}\n\n`)
      res.end()
    })().catch(() => res.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    held,
    release: () => release(),
    close: () =>
      new Promise<void>((resolve) => {
        release()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

describeShared('graphrag query (spawned CLI)', () => {
  let fake: FakeLlm
  let skip: string | undefined
  let root: string
  const data = () => sharedPath('reference', 'msgr-v3-dulce')

  beforeAll(async () => {
    skip = buildCli()
    if (skip !== undefined) console.warn(`NOTICE: spawned graphrag query tests skipped: ${skip}`)
    fake = await startFakeLlm({ embeddingDimension: DULCE_DIMENSION })
    root = fakeProject(fake.baseUrl).root
  }, 180_000)
  afterAll(async () => fake?.close())

  it('basic --json prints {response, context, usage}', async (ctx) => {
    if (skip !== undefined) return ctx.skip()
    const r = await runCli([
      'query',
      'Who works at Dulce base?',
      '--method',
      'basic',
      '--root',
      root,
      '--data',
      data(),
      '--json',
    ])
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const out = JSON.parse(r.stdout) as {
      response: string
      context: { sources: unknown[] }
      usage: { calls: number; embeddingCalls: number }
    }
    expect(out.response).toContain('[Data: Sources')
    expect(out.context.sources.length).toBeGreaterThan(0)
    expect(out.usage.calls).toBe(1)
    expect(out.usage.embeddingCalls).toBe(1)
  })

  it('local --streaming prints the answer while it is still arriving, then one newline', async (ctx) => {
    if (skip !== undefined) return ctx.skip()
    const relay = await startHoldingRelay(fake.baseUrl)
    try {
      const child = spawn(
        process.execPath,
        [
          join(PROJECT_ROOT, 'bin', 'graphrag.js'),
          'query',
          'Who is Alex Mercer?',
          '-m',
          'local',
          '-r',
          fakeProject(relay.baseUrl).root,
          '-d',
          data(),
          '--streaming',
        ],
        {
          env: { ...process.env, CI: 'true', NO_COLOR: '1' },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      )
      let stdout = ''
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve))
      const printed = new Promise<boolean>((resolve) => child.stdout.once('data', () => resolve(true)))
      await relay.held
      // A CLI that buffered the answer would print nothing until the reply ends, which waits for release().
      const printedWhileHeld = await Promise.race([
        printed,
        new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000)),
      ])
      const partial = stdout
      relay.release()
      expect(await exited).toBe(0)
      expect(printedWhileHeld).toBe(true)
      expect(partial).toMatch(/^## Answer/)
      expect(stdout.length).toBeGreaterThan(partial.length)
      expect(stdout.startsWith(partial)).toBe(true)
      expect(stdout).toMatch(/^## Answer[\s\S]*[^\n]\n$/)
    } finally {
      await relay.close()
    }
  })

  it('global without a chat model answers with the reports, naming the setting (exit code 0)', async (ctx) => {
    if (skip !== undefined) return ctx.skip()
    writeFileSync(join(root, 'offline.yaml'), `${fakeProjectYaml()}\nglobal_search:\n  completion_model_id: null\n`)
    const r = await runCli(['query', 'What is this about?', '-r', root, '-c', join(root, 'offline.yaml'), '-d', data()])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('global_search.completion_model_id is null')
    expect(r.stdout).toMatch(/^## 1\. /m)
  })

  function fakeProjectYaml(): string {
    return `completion_models: {}\nembedding_models:\n  default_embedding_model:\n    model_provider: openai\n    model: text-embedding-3-small\n    api_key: test-key\n    api_base: ${fake.baseUrl}\nlocal_search:\n  completion_model_id: null\nbasic_search:\n  completion_model_id: null\ndrift_search:\n  completion_model_id: null\ncommunity_reports:\n  completion_model_id: null`
  }
})
