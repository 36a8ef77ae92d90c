import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { basicSearch } from '../../src/query/index.js'
import { loadConfig } from '../../src/config/index.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import type { DiagnosticsReport } from '../../src/server/diagnostics.js'
import type { OPENAPI } from '../../src/server/openapi.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { fastChatSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'
import { expectQueryResponse } from '../support/query-response-schema.js'
import { readSse, type SseMessage } from './sse.js'

/** The offline demo corpus; the chat model is the fake server, embeddings stay local (hashing-384). */
/** The offline demo corpus; the chat model is the fake server, embeddings stay local (hashing-384). */
const settingsYaml = (baseUrl: string) =>
  fastChatSettingsYaml(baseUrl, {
    extra: [
      'drift_search:',
      '  n_depth: 1',
      '  drift_k_followups: 2',
      '  primer_folds: 1',
      'server:',
      '  max_body_bytes: 4096',
    ],
  })

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  })

async function waitFor(condition: () => boolean, ms = 5000): Promise<void> {
  const until = performance.now() + ms
  while (!condition()) {
    if (performance.now() > until) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

async function collect(response: Response): Promise<SseMessage[]> {
  const out: SseMessage[] = []
  for await (const m of readSse(response)) out.push(m)
  return out
}

describe('graphrag serve (real server on 127.0.0.1, fake chat model)', () => {
  let fake: FakeLlm
  let root: string
  let server: RunningServer
  const env = { GRAPHRAG_SERVER_TOKEN: undefined }

  beforeAll(async () => {
    fake = await startFakeLlm()
    root = await testdir({ 'settings.yaml': settingsYaml(fake.baseUrl) })
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'input'), join(root, 'input'), { recursive: true })
    await runIndex({ root, env: {}, skipValidation: true })
    server = await startServer({ root, port: 0, env })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it('GET /health answers without auth, with the API version', async () => {
    const res = await fetch(`${server.url}/health`)
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ status: 'ok', api_version: expect.stringMatching(/^\d+\.\d+\.\d+$/) })
    expect(server.host).toBe('127.0.0.1')
  })

  it('POST /query answers with each method the JSON of query --json; a repeat is an answer-cache hit', async () => {
    for (const method of ['local', 'global', 'drift', 'basic', 'graph']) {
      const res = await post(`${server.url}/query`, { question: `What happened in the storm? (${method})`, method })
      expect(res.status, method).toBe(200)
      const json = (await res.json()) as { method: string; response: string; usage: { calls: number } }
      expect(json.method).toBe(method)
      expect(json.response.length).toBeGreaterThan(0)
      expect(json.usage.calls).toBeGreaterThan(0)
    }
    const again = await post(`${server.url}/query`, {
      question: 'What happened in the storm? (basic)',
      method: 'basic',
    })
    expect(again.headers.get('x-graphrag-cache')).toBe('hit')
    const stats = (await (await fetch(`${server.url}/cache/stats`)).json()) as {
      answers: { hits: number; size: number; hit_rate: number }
    }
    expect(stats.answers.hits).toBe(1)
    expect(stats.answers.size).toBeGreaterThanOrEqual(5)
    expect(await (await post(`${server.url}/cache/clear`, {})).json()).toEqual({ cleared: true })
    const cleared = (await (await fetch(`${server.url}/cache/stats`)).json()) as {
      answers: { size: number }
      embeddings: { size: number }
    }
    expect([cleared.answers.size, cleared.embeddings.size]).toEqual([0, 0])
  })

  it('POST /query with method hybrid gives sources, references and warnings; /ranking/preview gives the ranking with no chat call', async () => {
    const res = await post(`${server.url}/query`, {
      question: 'Who salvaged the ship?',
      method: 'hybrid',
      context: ['The harbour master kept a log.'],
    })
    expect(res.status).toBe(200)
    const json = (await res.json()) as Record<string, unknown>
    expect(Object.keys(json)).toEqual(
      expect.arrayContaining(['response', 'sources', 'references', 'warnings', 'usage']),
    )
    expect((json.sources as Array<{ kind: string }>).some((s) => s.kind === 'external')).toBe(true)
    const chatsBefore = fake.requests.filter((r) => r.kind !== 'embedding').length
    const preview = await post(`${server.url}/ranking/preview`, { question: 'Who salvaged the ship?' })
    expect(preview.status).toBe(200)
    const body = (await preview.json()) as { ranking: unknown[]; explain_text: string }
    expect(body.ranking.length).toBeGreaterThan(0)
    expect(body.explain_text).toContain('|')
    expect(
      fake.requests
        .filter((r) => r.kind !== 'embedding')
        .slice(chatsBefore)
        .map((r) => r.kind),
    ).toEqual([])
    expect((await post(`${server.url}/query`, { question: 'q', method: 'basic', context: ['x'] })).status).toBe(400)
  })

  it('POST /query with method lazy and a budget: the lazy report within that budget; budget with another method is a 400', async () => {
    const res = await post(`${server.url}/query`, {
      question: 'Who rescued the crew in the storm?',
      method: 'lazy',
      budget: 6,
    })
    expect(res.status).toBe(200)
    const json = (await res.json()) as { method: string; lazy: { budget: number; tests: number } }
    expect(json.method).toBe('lazy')
    expect(json.lazy.budget).toBe(6)
    expect(json.lazy.tests).toBeLessThanOrEqual(6)
    expectQueryResponse(json)
    const bad = await post(`${server.url}/query`, { question: 'Who?', method: 'basic', budget: 6 })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      'budget: only available with method lazy',
    )
  })

  it('POST /query with top_k and max_context_tokens: the method’s own settings for that query; a method without them is a 400', async () => {
    const question = 'What did the harbour master do in the storm? (top k)'
    const sources = async (extra: Record<string, unknown>) => {
      const res = await post(`${server.url}/query`, { question, method: 'basic', ...extra })
      expect(res.status).toBe(200)
      return ((await res.json()) as { context: { sources: unknown[] } }).context.sources.length
    }
    const all = await sources({})
    expect(all).toBeGreaterThan(2)
    // basic_search.k = 2 for this query only; then the settings' value again.
    expect(await sources({ top_k: 2 })).toBe(2)
    expect(await sources({ max_context_tokens: 1 })).toBe(0)
    expect(await sources({})).toBe(all)
    const bad = await post(`${server.url}/query`, { question, method: 'global', top_k: 2 })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { message: string } }).error.message).toBe(
      'top_k: only available with method local, basic, drift',
    )
    const fraction = await post(`${server.url}/query`, { question, method: 'basic', top_k: 1.5 })
    expect(((await fraction.json()) as { error: { message: string } }).error.message).toBe(
      'top_k: expected a whole number from 1 to 1000000',
    )
  })

  it('POST /query with stream: true sends answer chunks, then the result with usage', async () => {
    const res = await post(`${server.url}/query`, {
      question: 'Tell me about the lantern festival',
      method: 'basic',
      stream: true,
    })
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const messages = await collect(res)
    const chunks = messages
      .filter((m) => m.event === 'message')
      .map((m) => (JSON.parse(m.data) as { chunk: string }).chunk)
    expect(chunks.length).toBeGreaterThan(1)
    expect(messages.at(-1)!.event).toBe('result')
    const result = JSON.parse(messages.at(-1)!.data) as { response: string; usage: { calls: number } }
    expect(chunks.join('')).toBe(result.response)
    expect(result.usage.calls).toBe(1)
  })

  it('bad requests are 400s naming the field, unknown paths 404, big bodies 413, never with a stack trace', async () => {
    const cases: Array<[unknown, string]> = [
      ['{not json', 'not valid JSON'],
      [{}, 'question: required'],
      [{ question: 'x', method: 'nope' }, 'method: expected one of'],
      [{ question: 'x', community_level: -1 }, 'community_level'],
      [{ question: 'x', history: [{ role: 'bot', content: 'hi' }] }, 'history'],
    ]
    for (const [body, message] of cases) {
      const res = await post(`${server.url}/query`, body)
      expect(res.status).toBe(400)
      const text = await res.text()
      expect(text).toContain(message)
      expect(text).not.toMatch(/\n\s+at |node_modules/)
    }
    expect((await post(`${server.url}/index`, { mode: 'rebuild' })).status).toBe(400)
    expect((await fetch(`${server.url}/index/stream?job=nope`)).status).toBe(404)
    expect((await fetch(`${server.url}/nope`)).status).toBe(404)
    const big = await post(`${server.url}/query`, { question: 'x'.repeat(10_000) })
    expect(big.status).toBe(413)
  })

  it('GET /diagnostics: tables with rows, vector tables with dimensions, models reachable, secrets masked', async () => {
    const res = await fetch(`${server.url}/diagnostics`)
    const text = await res.text()
    expect(text).not.toContain('sk-secret-test-key')
    const report = JSON.parse(text) as DiagnosticsReport
    expect(report.index.present).toBe(true)
    expect(report.tables.find((t) => t.name === 'text_units')!.rows).toBeGreaterThan(0)
    const vectors = report.vector_tables as Array<{ dimension: number | null }>
    expect(vectors.length).toBeGreaterThan(0)
    // Every table with a vector column has the configured dimension (full-text tables have none).
    const dims = vectors.map((t) => t.dimension).filter((d) => d !== null)
    expect(dims.length).toBeGreaterThanOrEqual(3)
    expect(new Set(dims)).toEqual(new Set([384]))
    expect(report.models.map((m) => [m.id, m.reachable])).toEqual([
      ['default_completion_model', true],
      ['default_embedding_model', true],
    ])
    const settings = report.settings as { completion_models: Record<string, { api_key: string }> }
    expect(settings.completion_models.default_completion_model!.api_key).toBe('***')
    expect(report.counts.chunk_edges!.sequence).toBeGreaterThan(0)
    expect(report.counts.relationships).toBeGreaterThan(0)
    // The reachability check is remembered for a minute: a second report makes no model call.
    const calls = fake.requests.length
    await fetch(`${server.url}/diagnostics`)
    expect(fake.requests.length).toBe(calls)
  })

  it('GET /openapi.json: OpenAPI 3.1 describing every route the server answers', async () => {
    const doc = (await (await fetch(`${server.url}/openapi.json`)).json()) as typeof OPENAPI
    expect(doc.openapi).toBe('3.1.0')
    const source = await readFile(join(PROJECT_ROOT, 'src', 'server', 'app.ts'), 'utf8')
    const others = await Promise.all(
      ['chat-completions.ts', 'index-stream.ts', 'ui-data.ts', 'api-docs.ts'].map((f) =>
        readFile(join(PROJECT_ROOT, 'src', 'server', f), 'utf8'),
      ),
    )
    const routes = [...[source, ...others].join('\n').matchAll(/app\.(get|post)\('([^']+)'/g)].map(
      (m) => `${m[1]} ${m[2]}`,
    )
    expect(routes.length).toBeGreaterThanOrEqual(11)
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string]
      expect((doc.paths as Record<string, Record<string, unknown>>)[path]?.[method], route).toBeDefined()
    }
  })

  it('the openai npm client talks to /v1/chat/completions, plain and streaming', async () => {
    const client = new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'unused', maxRetries: 0 })
    const models = await client.models.list()
    expect(models.data.map((m) => m.id)).toContain('graphrag-local')
    const reply = await client.chat.completions.create({
      model: 'graphrag-basic',
      messages: [
        { role: 'system', content: 'ignored' },
        { role: 'user', content: 'Who is the harbour master?' },
      ],
    })
    expect(reply.choices[0]!.message.content!.length).toBeGreaterThan(0)
    expect(reply.usage!.total_tokens).toBeGreaterThan(0)
    const stream = await client.chat.completions.create({
      model: 'graphrag-local',
      stream: true,
      messages: [{ role: 'user', content: 'What was salvaged?' }],
    })
    let text = ''
    let finish: string | null = null
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? ''
      finish = chunk.choices[0]?.finish_reason ?? finish
    }
    expect(text.length).toBeGreaterThan(0)
    expect(finish).toBe('stop')
    await expect(
      client.chat.completions.create({ model: 'gpt-4', messages: [{ role: 'user', content: 'x' }] }),
    ).rejects.toThrow(/model: expected one of/)
  })

  it('serves 50 queries, 20 at a time, all answered', async () => {
    const started = performance.now()
    let next = 0
    const answered: number[] = []
    const worker = async () => {
      while (next < 50) {
        const i = next++
        const res = await post(`${server.url}/query`, { question: `load question ${i}`, method: 'basic' })
        const json = (await res.json()) as { response?: string }
        if (res.status === 200 && (json.response ?? '').length > 0) answered.push(i)
      }
    }
    await Promise.all(Array.from({ length: 20 }, worker))
    expect(answered.sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i))
    expect(performance.now() - started).toBeLessThan(20_000)
  })

  it('POST /index runs one job at a time; its SSE events arrive in order while it runs and end with done; queries are served meanwhile', async () => {
    // A new document, so the run has work to do (unchanged inputs would all be resumed).
    await writeFile(
      join(root, 'input', '06-the-new-pier.txt'),
      'The town council of Harrowmere built a new pier after the storm. Captain Elsa Marr opened it.\n',
    )
    const start = await post(`${server.url}/index`, { mode: 'index' })
    expect(start.status).toBe(202)
    const { job, stream } = (await start.json()) as { job: string; stream: string }
    const events = await fetch(`${server.url}${stream}`)
    const seen: SseMessage[] = []
    let conflict = 0
    const queries: Array<Promise<number>> = []
    for await (const m of readSse(events)) {
      seen.push(m)
      if (seen.length === 2) {
        // The run is still going when its first progress event arrives: a second job is refused.
        conflict = (await post(`${server.url}/index`, {})).status
        for (const method of ['basic', 'local'])
          queries.push(
            post(`${server.url}/query`, { question: `during the run ${method}`, method }).then((r) => r.status),
          )
      }
    }
    expect(conflict).toBe(409)
    expect(await Promise.all(queries)).toEqual([200, 200])
    expect(seen[0]!.event).toBe('start')
    expect(JSON.parse(seen[0]!.data)).toMatchObject({ job, mode: 'index' })
    const progress = seen
      .filter((m) => m.event === 'message')
      .map((m) => JSON.parse(m.data) as { stage: string; detail?: string; current?: number; total?: number })
    expect(progress[0]).toMatchObject({ stage: 'pipeline', total: expect.any(Number) })
    expect(progress.some((p) => p.stage === 'create_base_text_units')).toBe(true)
    const stages = progress.filter((p) => p.detail === 'started').map((p) => p.stage)
    expect(stages.indexOf('create_base_text_units')).toBeLessThan(stages.indexOf('create_final_documents'))
    expect(seen.at(-2)!.event).toBe('result')
    expect(JSON.parse(seen.at(-2)!.data)).toMatchObject({ tables: expect.any(Array), seconds: expect.any(Number) })
    expect(JSON.parse(seen.at(-1)!.data)).toEqual({ stage: 'done' })
    // A client connecting after the end gets the start, the last state, the result and done.
    const late = await collect(await fetch(`${server.url}/index/stream?job=${job}`))
    expect(late.map((m) => m.event)).toEqual(['start', 'message', 'result', 'message'])
    expect(JSON.parse(late.at(-1)!.data)).toEqual({ stage: 'done' })
  })

  it('a failing job ends its stream with {"stage":"error"} and frees the slot', async () => {
    // The standard method needs the chat model, which now fails every call: the preflight check stops the run.
    fake.setFaults({ rate: 1, kinds: ['500'] })
    const start = await post(`${server.url}/index`, { method: 'standard' })
    const { stream } = (await start.json()) as { stream: string }
    const messages = await collect(await fetch(`${server.url}${stream}`))
    fake.setFaults(undefined)
    const last = JSON.parse(messages.at(-1)!.data) as { stage: string; error: string }
    expect(last.stage).toBe('error')
    expect(last.error.length).toBeGreaterThan(0)
    expect(last.error).not.toContain('sk-secret-test-key')
    expect(last.error).toContain('preflight')
    expect((await post(`${server.url}/index`, { method: 'fast' })).status).toBe(202)
    expect(JSON.parse((await collect(await fetch(`${server.url}/index/stream`))).at(-1)!.data)).toEqual({
      stage: 'done',
    })
  })

  it('POST /index with mode update indexes only changed documents, and says when nothing changed; new queries see the new index', async () => {
    await writeFile(
      join(root, 'input', '07-the-ferry.txt'),
      'Ferryman Tobias Venn carried the mayor of Harrowmere across the bay at dawn.\n',
    )
    const run = async () => {
      const start = await post(`${server.url}/index`, { mode: 'update' })
      expect(start.status).toBe(202)
      const { stream } = (await start.json()) as { stream: string }
      return collect(await fetch(`${server.url}${stream}`))
    }
    const first = await run()
    expect(JSON.parse(first.at(-1)!.data)).toEqual({ stage: 'done' })
    expect(JSON.parse(first.find((m) => m.event === 'result')!.data)).toMatchObject({ up_to_date: false })
    const again = await run()
    expect(JSON.parse(again.find((m) => m.event === 'result')!.data)).toMatchObject({
      up_to_date: true,
      changes: { added: [], edited: [], deleted: [] },
    })
    const res = await post(`${server.url}/query`, { question: 'Who is the ferryman?', method: 'basic' })
    const json = (await res.json()) as { context: Record<string, Array<Record<string, unknown>>> }
    expect(JSON.stringify(json.context)).toContain('Tobias Venn')
  })

  it('a client that disconnects mid-stream cancels the model calls of its query', async () => {
    // A slow model (3 s a call) on a copy of the index: the client goes away while the map calls are in flight.
    const slow = await startFakeLlm({ latency: { fixedMs: 3000 } })
    const copy = await testdir({ 'settings.yaml': settingsYaml(slow.baseUrl) })
    await cp(join(root, 'output'), join(copy, 'output'), { recursive: true })
    const other = await startServer({ root: copy, port: 0, env })
    try {
      const client = new AbortController()
      const res = await fetch(`${other.url}/query`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question: 'Who left early?', method: 'global', stream: true }),
        signal: client.signal,
      })
      expect(res.status).toBe(200)
      const chats = () => slow.requests.filter((r) => r.kind !== 'embedding' && r.kind !== 'models')
      await waitFor(() => chats().some((r) => r.kind === 'global_map'))
      client.abort()
      await waitFor(() => chats().every((r) => r.endedAt > 0))
      for (const r of chats()) {
        expect(r.status).toBe(0)
        expect(r.endedAt - r.startedAt).toBeLessThan(2500)
      }
      await new Promise((resolve) => setTimeout(resolve, 300))
      expect(chats().map((r) => r.kind)).not.toContain('global_reduce')
    } finally {
      await other.close()
      await slow.close()
    }
  })

  it('a query whose signal is aborted makes no model call (a disconnected client cancels its calls)', async () => {
    const chats = fake.requests.filter((r) => r.kind !== 'embedding').length
    const controller = new AbortController()
    controller.abort(new Error('gone'))
    const settings = loadConfig({ root, env: {} }).settings
    await expect(basicSearch({ query: 'cancelled', settings, signal: controller.signal })).rejects.toThrow()
    expect(fake.requests.filter((r) => r.kind !== 'embedding').length).toBe(chats)
  })
})

describe('graphrag serve with a token', () => {
  let fake: FakeLlm
  let root: string
  let server: RunningServer

  beforeAll(async () => {
    fake = await startFakeLlm()
    root = await testdir({ 'settings.yaml': settingsYaml(fake.baseUrl) })
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: 'tok-123' } })
  })
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it('every endpoint but /health needs Authorization: Bearer (401 otherwise)', async () => {
    expect((await fetch(`${server.url}/health`)).status).toBe(200)
    for (const path of ['/diagnostics', '/cache/stats', '/openapi.json', '/index/stream', '/v1/models']) {
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(401)
      expect((await fetch(`${server.url}${path}`, { headers: { authorization: 'Bearer wrong' } })).status, path).toBe(
        401,
      )
    }
    expect((await post(`${server.url}/query`, { question: 'x' })).status).toBe(401)
    expect((await fetch(`${server.url}/cache/stats`, { headers: { authorization: 'Bearer tok-123' } })).status).toBe(
      200,
    )
  })

  it('refuses to bind beyond loopback without a token', async () => {
    await expect(startServer({ root, host: '0.0.0.0', port: 0, env: {} })).rejects.toThrow(/GRAPHRAG_SERVER_TOKEN/)
  })

  it('refuses a token shorter than 16 characters beyond loopback, naming the rule and not the token', async () => {
    const short = startServer({ root, host: '0.0.0.0', port: 0, env: { GRAPHRAG_SERVER_TOKEN: 'x' } })
    await expect(short).rejects.toThrow(
      'GRAPHRAG_SERVER_TOKEN has 1 characters: binding 0.0.0.0 exposes the index beyond this machine, so the token needs at least 16 (e.g. openssl rand -hex 24)',
    )
    const fifteen = startServer({ root, host: '0.0.0.0', port: 0, token: 'harbour-token15' })
    await expect(fifteen).rejects.toThrow(/has 15 characters/)
    await expect(fifteen).rejects.not.toThrow(/harbour-token15/)
    const sixteen = await startServer({ root, host: '0.0.0.0', port: 0, token: 'harbour-token-16' })
    try {
      const health = await fetch(`http://127.0.0.1:${sixteen.port}/health`)
      expect(health.status).toBe(200)
    } finally {
      await sixteen.close()
    }
  })
})
