/**
 * What a web page open in the user's browser cannot do to `graphrag serve` (issue 31 item 5): DNS
 * rebinding (Host), simple-request CSRF (Content-Type, Origin), CORS only for named origins; URL
 * credentials masked; stopping the server stops a running job as Ctrl-C stops `index`.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { GraphragError } from '../../src/errors.js'
import { publicMessage } from '../../src/server/index-jobs.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { maskUrlSecrets } from '../../src/text/url-secrets.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { interruptProject } from '../support/interrupt-project.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'
import { readSse } from './sse.js'

// No chat model (its reachability check would go on the wire); the local embedder ignores api_base,
// which carries credentials here only for /diagnostics to mask them.
const OFFLINE = (extra: string[] = []) =>
  [
    'embedding_models:',
    '  default_embedding_model:',
    '    model_provider: local',
    '    model: hashing-384',
    '    dimensions: 384',
    '    api_key: sk-do-not-print',
    // user:password@ in api_base is refused when settings load (fetch cannot send it); maskUrlSecrets covers it below.
    '    api_base: http://127.0.0.1:9/v1?api-key=secret-in-query&x=1',
    ...extra,
    '',
  ].join('\n')

/** A raw request, so the Host header can be anything (fetch always sends the URL's host). */
function raw(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  const u = new URL(url)
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: u.hostname,
        port: u.port,
        path: u.pathname + u.search,
        method: options.method ?? 'GET',
        headers: options.headers,
      },
      (res) => {
        let body = ''
        res.on('data', (d: Buffer) => (body += d.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
      },
    )
    req.on('error', reject)
    req.end(options.body)
  })
}

describe('web-page safety', () => {
  let root: string
  let server: RunningServer

  beforeAll(async () => {
    root = await testdir({
      'settings.yaml': OFFLINE([
        'server:',
        '  allowed_hosts: [graphrag.internal]',
        '  cors_origins: ["http://localhost:5173"]',
      ]),
    })
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  })
  afterAll(() => server?.close())

  it('refuses a Host that is not this server (DNS rebinding); IPs, localhost and allowed_hosts pass', async () => {
    const port = server.port
    for (const host of [`evil.example:${port}`, `127.0.0.1.nip.io:${port}`, 'attacker.localhost.evil.com']) {
      const res = await raw(`${server.url}/cache/stats`, { headers: { host } })
      expect(res.status, host).toBe(403)
      expect(res.body).toContain('server.allowed_hosts')
    }
    for (const host of [
      `127.0.0.1:${port}`,
      `localhost:${port}`,
      `[::1]:${port}`,
      `graphrag.internal:${port}`,
      'GRAPHRAG.internal',
    ])
      expect((await raw(`${server.url}/cache/stats`, { headers: { host } })).status, host).toBe(200)
    // Even /health: a rebound page learns nothing.
    expect((await raw(`${server.url}/health`, { headers: { host: 'evil.example' } })).status).toBe(403)
  })

  it('POST needs application/json: text/plain and form bodies (sent by pages without a preflight) get 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', '']) {
      const headers: Record<string, string> = type === '' ? {} : { 'content-type': type }
      const res = await fetch(`${server.url}/cache/clear`, { method: 'POST', headers, body: '{}' })
      expect(res.status, type).toBe(415)
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('application/json')
    }
    const ok = await fetch(`${server.url}/cache/clear`, {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      body: '{}',
    })
    expect(ok.status).toBe(200)
  })

  it('a state-changing request from another origin is refused unless server.cors_origins lists it', async () => {
    const post = (origin: string) =>
      fetch(`${server.url}/cache/clear`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin },
        body: '{}',
      })
    const refused = await post('https://evil.example')
    expect(refused.status).toBe(403)
    expect(await refused.text()).toContain('server.cors_origins')
    expect((await post('null')).status).toBe(403)
    // The web UI served by this server is same-origin.
    expect((await post(server.url)).status).toBe(200)
    expect((await post('http://localhost:5173')).status).toBe(200)
  })

  it('CORS headers only for the listed origins, preflight included', async () => {
    const preflight = (origin: string) =>
      fetch(`${server.url}/query`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      })
    const allowed = await preflight('http://localhost:5173')
    expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173')
    expect(allowed.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type')
    const other = await preflight('https://evil.example')
    expect(other.headers.get('access-control-allow-origin')).toBeNull()
    const get = await fetch(`${server.url}/cache/stats`, { headers: { origin: 'https://evil.example' } })
    expect(get.headers.get('access-control-allow-origin')).toBeNull()
  })

  it('/diagnostics masks credentials inside URLs (api-key= query parameters) and keys', async () => {
    const text = await (await fetch(`${server.url}/diagnostics`)).text()
    for (const secret of ['sk-do-not-print', 'secret-in-query']) expect(text).not.toContain(secret)
    expect(text).toContain('127.0.0.1:9/v1?api-key=***&x=1')
  })

  it('maskUrlSecrets keeps the URL readable and removes what authenticates', () => {
    expect(maskUrlSecrets('https://u:p@host.example/v1?api-key=abc&x=1&sig=s1')).toBe(
      'https://***@host.example/v1?api-key=***&x=1&sig=***',
    )
    expect(maskUrlSecrets('failed: GET http://host/a?key=k#f and https://t@h/')).toBe(
      'failed: GET http://host/a?key=***#f and https://***@h/',
    )
    expect(maskUrlSecrets('no url here: key=value')).toBe('no url here: key=value')
    // What job streams, query streams and error replies show of an error goes through the same mask.
    expect(publicMessage(new GraphragError('LLM', 'connection failed: https://u:pw@llm.example/v1?api-key=k1'))).toBe(
      'connection failed: https://***@llm.example/v1?api-key=***',
    )
  })
})

describe('with no CORS origins configured', () => {
  it('sends no CORS headers at all, even for a preflight', async () => {
    const root = await testdir({ 'settings.yaml': OFFLINE() })
    const server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
    try {
      const res = await fetch(`${server.url}/query`, {
        method: 'OPTIONS',
        headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'POST' },
      })
      expect(res.headers.get('access-control-allow-origin')).toBeNull()
    } finally {
      await server.close()
    }
  })

  it('refuses a token a client could not send as a bearer token', async () => {
    const root = await testdir({ 'settings.yaml': OFFLINE() })
    await expect(startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: 'two words' } })).rejects.toThrow(
      /GRAPHRAG_SERVER_TOKEN: use only/,
    )
  })
})

describe('stopping the server during an index job', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8, latency: { fixedMs: 300 } })
  })
  afterAll(() => fake?.close())

  it('stops the job as Ctrl-C stops index: no new call, nothing published, stats say interrupted, the stream says so', async () => {
    const root = await interruptProject(fake, '03-the-salvage.txt')
    const server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
    const before = fake.requests.length
    const start = await fetch(`${server.url}/index`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'standard' }),
    })
    expect(start.status).toBe(202)
    const { stream } = (await start.json()) as { stream: string }
    const events = readSse(await fetch(`${server.url}${stream}`))
    const seen: string[] = []
    const reading = (async () => {
      for await (const m of events) seen.push(m.data)
    })()
    const deadline = Date.now() + 30_000
    while (fake.requests.slice(before).filter((r) => r.kind === 'extract_graph').length < 2) {
      if (Date.now() > deadline) throw new Error('no extraction call')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const stopped = Date.now()
    await server.close()
    await reading
    const sent = fake.requests.slice(before)
    expect(sent.filter((r) => r.startedAt > stopped + 100)).toEqual([])
    // Calls on the wire got their grace period and were answered (so they are cached).
    expect(sent.every((r) => r.status === 200)).toBe(true)
    expect(JSON.parse(seen.at(-1)!)).toMatchObject({ stage: 'interrupted' })
    expect(existsSync(join(root, 'output'))).toBe(false)
    const stats = JSON.parse(await readFile(join(root, '.output.run', 'work', 'stats.json'), 'utf8'))
    expect(stats.status).toBe('interrupted')
  }, 60_000)

  // The same through the built CLI: `serve`'s SIGTERM handler closes the server, which stops the job first.
  // A few seconds, so it runs in the default suite (issue 46 item 3).
  it('SIGTERM to graphrag serve during a job: the job stops as with Ctrl-C on index, then the process exits', async () => {
    const root = await interruptProject(fake, '03-the-salvage.txt')
    const child = spawn(
      process.execPath,
      [join(PROJECT_ROOT, 'bin', 'graphrag.js'), 'serve', '--root', root, '--port', '0'],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, GRAPHRAG_SERVER_TOKEN: '' },
      },
    )
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve))
    const url = await new Promise<string>((resolve, reject) => {
      let stderr = ''
      child.stderr.on('data', (d: Buffer) => {
        stderr += d.toString()
        const match = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)
        if (match) resolve(match[1]!)
      })
      child.on('exit', () => reject(new Error(stderr)))
    })
    const before = fake.requests.length
    const start = await fetch(`${url}/index`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ method: 'standard' }),
    })
    expect(start.status).toBe(202)
    const deadline = Date.now() + 60_000
    while (fake.requests.slice(before).filter((r) => r.kind === 'extract_graph').length < 2) {
      if (Date.now() > deadline) throw new Error('no extraction call')
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
    const signalled = Date.now()
    child.kill('SIGTERM')
    expect(await exited).toBe(0)
    expect(fake.requests.slice(before).filter((r) => r.startedAt > signalled + 100)).toEqual([])
    expect(existsSync(join(root, 'output'))).toBe(false)
    const stats = JSON.parse(await readFile(join(root, '.output.run', 'work', 'stats.json'), 'utf8'))
    expect(stats.status).toBe('interrupted')
  }, 120_000)
})
