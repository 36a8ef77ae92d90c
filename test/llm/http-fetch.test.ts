/**
 * The node:http fetch handed to the openai SDK: what undici's fetch gave the SDK and src/llm/client.ts,
 * against real servers on 127.0.0.1 (a small node:http/node:https one here, and the fake model server).
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import http from 'node:http'
import https from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import zlib from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createClient } from '../../src/llm/client.js'
import { AttemptFailure } from '../../src/llm/failure.js'
import { httpFetch } from '../../src/llm/http-fetch.js'
import { UsageMeter } from '../../src/llm/usage.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { HELLO } from './helpers.js'

interface Seen {
  path: string
  method: string
  headers: http.IncomingHttpHeaders
  body: string
  port: number
}

/** Resolves when the test has read the first server-sent event, so the server can send the rest. */
let firstEventRead: () => void = () => undefined
const closedHangs: string[] = []

function sseReply(res: http.ServerResponse): void {
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  const delta = (content: string) =>
    `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 0, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`
  res.write(delta('Hello'))
  new Promise<void>((resolve) => {
    firstEventRead = resolve
  }).then(() => res.end(`${delta(' World')}data: [DONE]\n\n`))
}

function compressed(res: http.ServerResponse, encoding: string, text: string): void {
  const bytes =
    encoding === 'gzip'
      ? zlib.gzipSync(text)
      : encoding === 'br'
        ? zlib.brotliCompressSync(text)
        : zlib.deflateSync(text)
  res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding }).end(bytes)
}

function route(req: http.IncomingMessage, res: http.ServerResponse, seen: Seen): void {
  const reply = JSON.stringify({ path: seen.path, body: seen.body })
  if (seen.path.startsWith('/encoded/')) {
    compressed(res, seen.path.slice('/encoded/'.length), reply)
    return
  }
  if (seen.path === '/redirect') {
    res.writeHead(307, { location: '/json?from=redirect' }).end()
    return
  }
  if (seen.path === '/empty') {
    res.writeHead(204).end()
    return
  }
  if (seen.path.endsWith('/chat/completions') && seen.body.includes('"stream":true')) {
    sseReply(res)
    return
  }
  const socket = req.socket as typeof req.socket & { resetServed?: boolean; cutServed?: boolean }
  // A second /reset on a kept-alive connection: dropped, as by a server closing an idle socket.
  if (seen.path === '/reset' && socket.resetServed === true) {
    socket.destroy()
    return
  }
  if (seen.path === '/reset') socket.resetServed = true
  // A second /cut on a kept-alive connection: reset after the reply has begun, which must not be sent again.
  if (seen.path === '/cut' && socket.cutServed === true) {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write('{"partial":')
    setTimeout(() => socket.resetAndDestroy(), 20)
    return
  }
  if (seen.path === '/cut') socket.cutServed = true
  if (seen.path.includes('/hang')) {
    req.socket.once('close', () => closedHangs.push(seen.path))
    return
  }
  res.writeHead(200, { 'content-type': 'application/json', 'x-reply': 'yes' }).end(reply)
}

function listener(seen: Seen[]): http.RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const entry = {
        path: new URL(req.url ?? '/', 'http://x').pathname,
        method: req.method ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
        port: req.socket.remotePort ?? 0,
      }
      seen.push(entry)
      route(req, res, entry)
    })
  }
}

async function listen(server: http.Server | https.Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const scheme = server instanceof https.Server ? 'https' : 'http'
  return `${scheme}://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** openssl makes the HTTPS test's certificate: absent on a developer's machine, that one test skips with a notice (CI installs it). */
const HAS_OPENSSL = spawnSync('openssl', ['version'], { stdio: 'ignore' }).status === 0
if (!HAS_OPENSSL && process.env.CI !== 'true')
  console.warn('NOTICE: openssl is absent (apt-get install openssl); the HTTPS test of httpFetch is skipped.')
const itWithTls = HAS_OPENSSL || process.env.CI === 'true' ? it : it.skip

function selfSignedCert(dir: string): { key: Buffer; cert: Buffer } {
  execFileSync(
    'openssl',
    [
      ...['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1'],
      ...['-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-subj', '/CN=127.0.0.1'],
      ...['-addext', 'subjectAltName=IP:127.0.0.1'],
    ],
    { stdio: 'ignore' },
  )
  return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) }
}

const post = (body: string | Uint8Array) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: 'Bearer sk-fetch-secret' },
  body,
})

describe('httpFetch (node:http with keep-alive under the openai SDK)', () => {
  const seen: Seen[] = []
  const server = http.createServer(listener(seen))
  const dir = mkdtempSync(join(tmpdir(), 'http-fetch-'))
  let tlsServer: https.Server | undefined
  let base = ''
  let tlsBase = ''
  let fake: FakeLlm
  beforeAll(async () => {
    base = await listen(server)
    if (itWithTls === it) {
      tlsServer = https.createServer(selfSignedCert(dir), listener(seen))
      tlsBase = await listen(tlsServer)
    }
    fake = await startFakeLlm({ embeddingDimension: 4 })
  })
  afterAll(async () => {
    server.closeAllConnections()
    tlsServer?.closeAllConnections()
    await Promise.all([
      new Promise((r) => server.close(r)),
      new Promise((r) => tlsServer?.close(r) ?? r(undefined)),
      fake.close(),
    ])
    rmSync(dir, { recursive: true, force: true })
  })

  it('gives a web Response (status, headers, json, text, url) and sends string and byte bodies with their length', async () => {
    const response = await httpFetch(`${base}/json`, post('{"a":1}'))
    expect(response).toBeInstanceOf(Response)
    expect([response.status, response.ok, response.headers.get('x-reply'), response.url]).toEqual([
      200,
      true,
      'yes',
      `${base}/json`,
    ])
    expect(await response.json()).toEqual({ path: '/json', body: '{"a":1}' })
    const bytes = await httpFetch(new URL(`${base}/json`), post(new TextEncoder().encode('{"é":2}')))
    expect(await bytes.text()).toBe(JSON.stringify({ path: '/json', body: '{"é":2}' }))
    const last = seen.at(-1) as Seen
    expect([last.method, last.headers['content-length'], last.headers['transfer-encoding']]).toEqual([
      'POST',
      '8',
      undefined,
    ])
    expect(last.headers.authorization).toBe('Bearer sk-fetch-secret')
    const empty = await httpFetch(`${base}/empty`)
    expect([empty.status, empty.body, await empty.text()]).toEqual([204, null, ''])
  })

  it('reads a whole reply once, as a web Response does, with body, blob, clone and arrayBuffer too', async () => {
    const expected = JSON.stringify({ path: '/json', body: '\ufeff{"b":1}' })
    const first = await httpFetch(`${base}/json`, post('\ufeff{"b":1}'))
    const copy = first.clone()
    expect([first.bodyUsed, await first.text(), first.bodyUsed]).toEqual([false, expected, true])
    await expect(first.text()).rejects.toThrow(TypeError)
    await expect(first.json()).rejects.toThrow(TypeError)
    expect(() => first.clone()).toThrow(TypeError)
    expect([copy.url, copy.status, copy.headers.get('x-reply')]).toEqual([`${base}/json`, 200, 'yes'])
    expect(new TextDecoder().decode(await copy.arrayBuffer())).toBe(expected)
    const streamed = await httpFetch(`${base}/json`, post('{}'))
    const reader = (streamed.body as ReadableStream<Uint8Array>).getReader()
    const { value } = await reader.read()
    expect(new TextDecoder().decode(value)).toBe(JSON.stringify({ path: '/json', body: '{}' }))
    reader.releaseLock()
    expect(streamed.bodyUsed).toBe(true)
    await expect(streamed.text()).rejects.toThrow(TypeError)
    const blob = await (await httpFetch(`${base}/json`, post('{}'))).blob()
    expect(blob.size).toBe(JSON.stringify({ path: '/json', body: '{}' }).length)
    const bom = await httpFetch(`${base}/encoded/gzip`, post('{}'))
    expect(await bom.json()).toEqual({ path: '/encoded/gzip', body: '{}' })
  })

  it('keeps connections alive: sequential requests share one socket', async () => {
    const from = seen.length
    for (let i = 0; i < 3; i += 1) await (await httpFetch(`${base}/json`, post('{}'))).text()
    const ports = new Set(seen.slice(from).map((s) => s.port))
    expect(ports.size).toBe(1)
  })

  it('asks for gzip and deflate over http (br too over TLS) and decodes each', async () => {
    for (const encoding of ['gzip', 'deflate', 'br']) {
      const response = await httpFetch(`${base}/encoded/${encoding}`, post('{"z":1}'))
      expect(await response.json()).toEqual({ path: `/encoded/${encoding}`, body: '{"z":1}' })
    }
    expect(seen.at(-1)?.headers['accept-encoding']).toBe('gzip, deflate')
  })

  itWithTls('speaks HTTPS with keep-alive, verifying the certificate', async () => {
    const refused = await httpFetch(`${tlsBase}/json`, post('{}')).catch((e: unknown) => e)
    expect(refused).toBeInstanceOf(TypeError)
    expect((refused as TypeError).message).toBe('fetch failed')
    expect(((refused as TypeError).cause as NodeJS.ErrnoException).code).toBe('DEPTH_ZERO_SELF_SIGNED_CERT')
    process.env.NODE_TLS_REJECT_UNAUTHORIZED = '0'
    try {
      const from = seen.length
      for (let i = 0; i < 2; i += 1) {
        const response = await httpFetch(`${tlsBase}/encoded/br`, post('{"t":1}'))
        expect(await response.json()).toEqual({ path: '/encoded/br', body: '{"t":1}' })
      }
      expect(seen[from]?.headers['accept-encoding']).toBe('br, gzip, deflate')
      expect(new Set(seen.slice(from).map((s) => s.port)).size).toBe(1)
    } finally {
      delete process.env.NODE_TLS_REJECT_UNAUTHORIZED
    }
  })

  it('follows a redirect through the global fetch, sending the body again', async () => {
    const from = seen.length
    const response = await httpFetch(`${base}/redirect`, post('{"r":1}'))
    expect([response.status, await response.json()]).toEqual([200, { path: '/json', body: '{"r":1}' }])
    expect(seen.slice(from).map((s) => s.path)).toEqual(['/redirect', '/redirect', '/json'])
  })

  it('hands FormData bodies (Batch API uploads) to the global fetch', async () => {
    const form = new FormData()
    form.append('purpose', 'batch')
    const response = await httpFetch(`${base}/json`, { method: 'POST', body: form })
    const { body } = (await response.json()) as { body: string }
    expect(body).toMatch(/name="purpose"\r\n\r\nbatch\r\n/)
    expect(seen.at(-1)?.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
  })

  it('sends once more on a fresh socket when the server dropped the kept-alive one', async () => {
    await (await httpFetch(`${base}/reset`, post('{}'))).text()
    const from = seen.length
    const response = await httpFetch(`${base}/reset`, post('{"again":1}'))
    expect(await response.json()).toEqual({ path: '/reset', body: '{"again":1}' })
    expect(seen.length - from).toBe(2)
  })

  it('never sends again once a reply has begun, even when its kept-alive socket is reset', async () => {
    await (await httpFetch(`${base}/cut`, post('{}'))).text()
    const from = seen.length
    const error = await httpFetch(`${base}/cut`, post('{"once":1}')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Error)
    await new Promise((r) => setTimeout(r, 100))
    expect(seen.slice(from).map((s) => s.body)).toEqual(['{"once":1}'])
  })

  it('rejects an abort with a DOMException named AbortError and closes the socket', async () => {
    const controller = new AbortController()
    const pending = httpFetch(`${base}/hang`, { ...post('{}'), signal: controller.signal })
    await new Promise((r) => setTimeout(r, 50))
    controller.abort()
    const error = await pending.catch((e: unknown) => e)
    expect(error).toBeInstanceOf(DOMException)
    expect((error as DOMException).name).toBe('AbortError')
    await new Promise((r) => setTimeout(r, 50))
    expect(closedHangs).toContain('/hang')
    const already = await httpFetch(`${base}/json`, { signal: AbortSignal.abort() }).catch((e: unknown) => e)
    expect((already as DOMException).name).toBe('AbortError')
  })

  it('rejects a refused connection as TypeError("fetch failed") with the socket error as cause', async () => {
    const dead = http.createServer()
    const deadBase = await listen(dead)
    await new Promise((r) => dead.close(r))
    const error = await httpFetch(`${deadBase}/v1/chat/completions`, post('{}')).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TypeError)
    expect((error as TypeError).message).toBe('fetch failed')
    expect(((error as TypeError).cause as NodeJS.ErrnoException).code).toBe('ECONNREFUSED')
  })

  function client(apiBase: string, overrides: Partial<Parameters<typeof createClient>[0]> = {}) {
    const options = { provider: 'openai' as const, model: 'gpt-4.1', apiKey: 'sk-fetch-secret', apiBase }
    return createClient({
      ...options,
      apiVersion: undefined,
      azureDeploymentName: undefined,
      timeoutMs: 5000,
      dimensions: undefined,
      countTokens: (t) => t.length,
      ...overrides,
    })
  }
  const call = (signal?: AbortSignal) => ({
    messages: HELLO,
    responseFormat: undefined,
    params: {},
    meter: new UsageMeter(undefined),
    noCache: false,
    signal,
  })

  it('streams chat deltas through the SDK as they arrive', async () => {
    const deltas: string[] = []
    for await (const delta of client(base).stream(call())) {
      deltas.push(delta)
      // The server sends the rest only once the first delta has reached here: a buffered body would hang.
      firstEventRead()
    }
    expect(deltas).toEqual(['Hello', ' World'])
  })

  it('completes and embeds through the fake server for OpenAI-compatible and Azure clients', async () => {
    const openai = client(fake.baseUrl)
    expect((await openai.complete(call())).content).toBe('Hello World')
    const embedded = await openai.embed({
      input: ['a', 'b'],
      meter: new UsageMeter(undefined),
      noCache: false,
      signal: undefined,
    })
    expect(embedded.vectors.map((v) => v.length)).toEqual([4, 4])
    const azureBase = fake.baseUrl.replace(/\/v1$/, '')
    const azure = client(azureBase, { provider: 'azure', apiVersion: '2024-10-21', azureDeploymentName: 'chat' })
    expect((await azure.complete(call())).content).toBe('Hello World')
    expect(fake.requests.at(-1)?.path).toBe('/openai/deployments/chat/chat/completions')
  })

  it('lets the SDK tell a timeout from a cancel', async () => {
    const timedOut = await client(`${base}/hang`, { timeoutMs: 150 })
      .complete(call())
      .catch((e: unknown) => e)
    expect([(timedOut as AttemptFailure).kind, (timedOut as AttemptFailure).message]).toEqual([
      'timeout',
      'request timed out',
    ])
    const controller = new AbortController()
    setTimeout(() => controller.abort(), 100)
    const cancelled = await client(`${base}/hang`)
      .complete(call(controller.signal))
      .catch((e: unknown) => e)
    expect((cancelled as AttemptFailure).kind).toBe('aborted')
  })

  it('classifies a refused connection as unreachable, naming neither key nor credentials', async () => {
    const dead = http.createServer()
    const deadBase = await listen(dead)
    await new Promise((r) => dead.close(r))
    const failure = await client(`${deadBase}/v1`)
      .complete(call())
      .catch((e: unknown) => e)
    expect(failure).toBeInstanceOf(AttemptFailure)
    expect((failure as AttemptFailure).message).toBe(
      `cannot reach ${deadBase}/v1 (ECONNREFUSED); is the server running and api_base right?`,
    )
    expect((failure as AttemptFailure).retryable).toBe(false)
    const withUser = deadBase.replace('http://', 'http://user:pw-secret@')
    const credentialed = await client(`${withUser}/v1`)
      .complete(call())
      .catch((e: unknown) => e)
    expect(String((credentialed as Error).message)).not.toMatch(/pw-secret|sk-fetch-secret/)
    expect(timedOutText(failure)).not.toContain('sk-fetch-secret')
  })
})

function timedOutText(error: unknown): string {
  return `${(error as Error).message} ${String((error as Error).cause)}`
}
