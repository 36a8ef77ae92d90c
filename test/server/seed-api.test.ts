// The seed design's HTTP API (docs/seeds.md) served beside ours, through the real server on
// 127.0.0.1 over an indexed demo project: `answer`, the ranking preview's `items`, sources' rank and
// score, `detail` on every error (with `trace` only under server.debug_errors), bodiless /cache/clear
// and the caches' key lists.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { expectQueryResponse } from '../support/query-response-schema.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { fastChatSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'
import { readSse, type SseMessage } from './sse.js'

const SECRET = 'sk-seed-api-secret'

const settingsYaml = (baseUrl: string) =>
  fastChatSettingsYaml(baseUrl, {
    apiKey: SECRET,
    extra: [
      // Short vector and BM25 lists, so that the graph walk and chunk edges bring in passages of their own.
      'hybrid_search:',
      '  vector_top_k: 2',
      '  bm25_top_k: 2',
      'server:',
      '  ingest_roots: [incoming]',
    ],
  })

const post = (url: string, body?: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  fetch(url, { method: 'POST', headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })

interface Source {
  label: string
  reason: string
  seed_reason: string
  rank: number
  score: number | null
  score_raw: number | null
  composite_score: number | null
}

describe('the seed API beside ours (real server, fake chat model)', () => {
  let fake: FakeLlm
  let root: string
  let server: RunningServer

  beforeAll(async () => {
    fake = await startFakeLlm()
    root = await testdir({ 'settings.yaml': settingsYaml(fake.baseUrl) })
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'input'), join(root, 'input'), { recursive: true })
    await runIndex({ root, env: {}, skipValidation: true })
    await mkdir(join(root, 'incoming'))
    // Long enough for several chunks, so the new names recur across text units and survive pruning.
    const regatta = 'Mara Voss won the Kestrel Regatta aboard the Silver Heron. Elias Brand timed the Kestrel Regatta. '
    await writeFile(join(root, 'incoming', 'the-regatta.txt'), `The Kestrel Regatta\n\n${regatta.repeat(120)}\n`)
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it('POST /query carries answer beside response; hybrid sources have rank, score and the design reason; references score', async () => {
    const res = await post(`${server.url}/query`, {
      question: 'Who salvaged the ship?',
      method: 'hybrid',
      context: [{ id: 'memo', text: 'The harbour master kept a log of the salvage.' }],
    })
    expect(res.status).toBe(200)
    const json = (await res.json()) as {
      answer: string
      response: string
      sources: Source[]
      references: Array<{ label: string; rank: number; score: number | null; composite_score: number | null }>
    }
    expectQueryResponse(json)
    expect(json.answer).toBe(json.response)
    expect(json.answer.length).toBeGreaterThan(0)
    json.sources.forEach((s, i) => {
      expect(s.rank).toBe(i + 1)
      expect(s.score).toBe(s.score_raw)
    })
    const external = json.sources.find((s) => s.reason === 'external')!
    expect(external.seed_reason).toBe('external')
    expect(json.sources.filter((s) => s.reason === 'graph').every((s) => s.seed_reason === 'relates')).toBe(true)
    expect(json.references.length).toBeGreaterThan(0)
    for (const r of json.references) {
      const source = json.sources.find((s) => s.label === r.label)!
      expect([r.rank, r.score, r.composite_score]).toEqual([source.rank, source.score_raw, source.composite_score])
    }
    const basic = (await (
      await post(`${server.url}/query`, { question: 'What happened?', method: 'basic' })
    ).json()) as {
      answer: string
      response: string
    }
    expect(basic.answer).toBe(basic.response)
  })

  it('POST /ranking/preview serves items (the design reasons and scores) beside ranking', async () => {
    const res = await post(`${server.url}/ranking/preview`, { question: 'Who salvaged the ship?' })
    const body = (await res.json()) as {
      ranking: Array<{ id: string; reason: string; final_score: number; rel_type: string | null }>
      items: Array<{ id: string; reason: string; final_score: number; composite_score: number }>
      degraded: boolean
    }
    expect(body.items.length).toBe(body.ranking.length)
    expect(body.items.length).toBeGreaterThan(0)
    body.items.forEach((item, i) => {
      expect(item.id).toBe(body.ranking[i]!.id)
      expect(item.final_score).toBe(body.ranking[i]!.final_score)
      expect(['vector', 'bm25', 'relates', 'cooccur', 'llm_rel']).toContain(item.reason)
    })
    const graphRows = body.ranking.flatMap((r, i) => (r.reason === 'graph' ? [i] : []))
    for (const i of graphRows) expect(body.items[i]!.reason).toBe('relates')
    const edgeRows = body.ranking.flatMap((r, i) => (r.reason === 'edge' ? [i] : []))
    // Short lists: passages the walk or an edge brought in are there, and named in the design's words.
    expect(graphRows.length + edgeRows.length, JSON.stringify(body.ranking.map((r) => r.reason))).toBeGreaterThan(0)
    const designReason = (relType: string | null) =>
      relType === null || relType === 'related_to' ? 'relates' : relType === 'sequence' ? 'cooccur' : 'llm_rel'
    for (const i of edgeRows) expect(body.items[i]!.reason).toBe(designReason(body.ranking[i]!.rel_type))
    expect(typeof body.degraded).toBe('boolean')
  })

  it('every error reply carries detail (= error.message); trace only under server.debug_errors, never the message or a secret', async () => {
    const missing = await fetch(`${server.url}/no/such/route`)
    expect(missing.status).toBe(404)
    const notFound = (await missing.json()) as { error: { message: string }; detail: string; trace?: string }
    expect(notFound.detail).toBe(notFound.error.message)
    const bad = await post(`${server.url}/query`, { question: 'q', method: 'nope' })
    expect(bad.status).toBe(400)
    const badJson = (await bad.json()) as { error: { message: string; type: string }; detail: string }
    expect(badJson).toEqual({ error: { message: badJson.detail, type: 'invalid_request' }, detail: badJson.detail })
    expect(badJson.detail).toMatch(/^method: expected one of/)
    const unsupported = await post(`${server.url}/query`, 'x', { 'content-type': 'text/plain' })
    expect(unsupported.status).toBe(415)
    expect(((await unsupported.json()) as { detail: string }).detail).toMatch(/needs Content-Type: application\/json/)

    const settings = join(root, 'settings.yaml')
    const original = await readFile(settings, 'utf8')
    await writeFile(settings, original.replace('server:\n', 'server:\n  debug_errors: true\n'))
    try {
      const debug = (await (await post(`${server.url}/query`, { question: 'q', method: 'nope' })).json()) as {
        detail: string
        trace: string
      }
      expect(debug.detail).toMatch(/^method: expected one of/)
      expect(debug.trace.split('\n').every((line) => line.startsWith('at '))).toBe(true)
      expect(debug.trace).not.toContain('expected one of')
      expect(JSON.stringify(debug)).not.toContain(SECRET)
    } finally {
      await writeFile(settings, original)
    }
    expect('trace' in ((await (await fetch(`${server.url}/no/such`)).json()) as object)).toBe(false)
  })

  it('POST /cache/clear works with no body (with and without a JSON content type); /cache/stats lists the cached questions', async () => {
    await post(`${server.url}/query`, { question: 'What did the lighthouse keeper see?', method: 'basic' })
    const stats = (await (await fetch(`${server.url}/cache/stats`)).json()) as {
      embedding_cache_size: number
      answer_cache_size: number
      embedding_cache_keys: string[]
      answer_cache_keys: string[]
      answers: { size: number }
    }
    expect(stats.answer_cache_size).toBe(stats.answers.size)
    expect(stats.answer_cache_keys[0]).toBe('basic: What did the lighthouse keeper see?')
    expect(stats.embedding_cache_keys).toContain('What did the lighthouse keeper see?')
    expect(stats.embedding_cache_keys.length).toBe(Math.min(stats.embedding_cache_size, 20))
    expect(JSON.stringify(stats)).not.toContain(SECRET)
    expect(JSON.stringify(stats)).not.toContain('api_base')

    const bare = await fetch(`${server.url}/cache/clear`, { method: 'POST' })
    expect([bare.status, await bare.json()]).toEqual([200, { cleared: true }])
    const emptyJson = await post(`${server.url}/cache/clear`)
    expect([emptyJson.status, await emptyJson.json()]).toEqual([200, { cleared: true }])
    expect((await post(`${server.url}/cache/clear`, {})).status).toBe(200)
    expect((await post(`${server.url}/cache/clear`, [1])).status).toBe(400)
    const after = (await (await fetch(`${server.url}/cache/stats`)).json()) as { answer_cache_keys: string[] }
    expect(after.answer_cache_keys).toEqual([])
  })

  it('POST /ingest?progress=true waits and answers the design fields (chunks_new, chunks_skipped, entities_created) and its progress under the design stage names', async () => {
    const res = await post(`${server.url}/ingest?progress=true`, { path: 'incoming/the-regatta.txt' })
    const body = (await res.json()) as Record<string, unknown> & {
      progress: Array<{ stage: string; workflow?: string }>
    }
    expect(res.status).toBe(200)
    expect(body).toMatchObject({ mode: 'update', files_processed: 1, incremental: true, refresh: false })
    expect(body.chunks_new).toBeGreaterThan(0)
    expect(body.chunks_skipped).toBeGreaterThan(0)
    expect(body.chunks_total).toBe((body.chunks_new as number) + (body.chunks_skipped as number))
    expect(body.entities_created).toBeGreaterThan(0)
    expect(typeof body.elapsed_sec).toBe('number')
    const stages = new Set(body.progress.map((e) => e.stage))
    expect(stages).toContain('scan_input')
    expect(stages).toContain('entity_extraction')
    // Each group of embedded texts, and the vector tables written when the embeddings end.
    expect(stages).toContain('embedding_batch')
    expect(stages).toContain('schema_index')
    const batch = body.progress.find((e) => e.stage === 'embedding_batch') as Record<string, unknown>
    expect(batch).toMatchObject({ detail: 'batch_ok' })
    expect(batch.current).toBeGreaterThan(0)
    expect(body.progress.find((e) => e.stage === 'entity_extraction')!.workflow).toMatch(
      /extract_graph|update_entities/,
    )
    // ?path= streams this path's job: its result under {stage: "result", result}, then done.
    const messages: SseMessage[] = []
    for await (const m of readSse(await fetch(`${server.url}/ingest/stream?path=incoming/the-regatta.txt`)))
      messages.push(m)
    const result = JSON.parse(messages.find((m) => m.event === 'result')!.data) as {
      stage: string
      result: { chunks_new: number }
      chunks_new: number
    }
    expect(result.stage).toBe('result')
    expect(result.result.chunks_new).toBe(body.chunks_new)
    expect(result.chunks_new).toBe(body.chunks_new)
    expect(JSON.parse(messages.at(-1)!.data)).toEqual({ stage: 'done' })
  }, 120_000)

  it('GET /ingest/stream needs a path or a job (400) and names a path no job read (404); bad ingest parameters are 400s naming them', async () => {
    const none = await fetch(`${server.url}/ingest/stream`)
    expect([none.status, ((await none.json()) as { detail: string }).detail]).toEqual([
      400,
      'path: required (the path given to POST /ingest), or job=<id>',
    ])
    const other = await fetch(`${server.url}/ingest/stream?path=incoming/never.txt`)
    expect(other.status).toBe(404)
    expect(((await other.json()) as { detail: string }).detail).toMatch(/^path: no ingest job has read .*never\.txt/)
    const refusals: Array<[string, RegExp]> = [
      ['incremental=maybe', /^incremental: expected true or false, got "maybe"/],
      ['refresh_relations=false', /^refresh_relations: false applies only with refresh=true/],
      ['checkpoint=false', /^checkpoint: false is not supported/],
    ]
    for (const [query, message] of refusals) {
      const res = await post(`${server.url}/ingest?${query}`, { path: 'incoming/the-regatta.txt' })
      expect(res.status, query).toBe(400)
      expect(((await res.json()) as { detail: string }).detail).toMatch(message)
    }
  })

  it('incremental defaults to server.ingest_incremental; false, or refresh=true, runs a full index where unchanged chunks count as skipped', async () => {
    const settings = join(root, 'settings.yaml')
    const original = await readFile(settings, 'utf8')
    await writeFile(settings, original.replace('server:\n', 'server:\n  ingest_incremental: false\n'))
    try {
      const res = await post(`${server.url}/ingest?wait=true`, { path: 'incoming/the-regatta.txt' })
      const body = (await res.json()) as Record<string, unknown>
      expect(res.status).toBe(200)
      expect(body).toMatchObject({ mode: 'index', incremental: false, chunks_new: 0, entities_created: 0 })
      expect(body.chunks_skipped).toBe(body.chunks_total)
      expect('progress' in body).toBe(false)
    } finally {
      await writeFile(settings, original)
    }
    // refresh_relations=false: the full run asks the model for no chunk-graph relation, although the
    // settings turn them on.
    await writeFile(settings, `${original}chunk_graph:\n  llm_edges: true\n`)
    const asked = fake.requests.length
    try {
      const refresh = await post(`${server.url}/ingest?refresh=true&incremental=true&refresh_relations=false`, {
        path: 'incoming/the-regatta.txt',
      })
      expect(refresh.status).toBe(202)
      const accepted = (await refresh.json()) as { mode: string; job: string }
      expect(accepted.mode).toBe('index')
      const events = []
      for await (const event of readSse(await fetch(`${server.url}/ingest/stream?job=${accepted.job}`)))
        events.push(event)
      expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ stage: 'done' })
      expect(fake.requests.slice(asked).filter((r) => r.kind === 'chunk_graph')).toEqual([])
    } finally {
      await writeFile(settings, original)
    }
  }, 180_000)

  it('GET /diagnostics has the design blocks: feature_flags and noise_control following the settings, relation_weights, entity_aliases with examples', async () => {
    const settings = join(root, 'settings.yaml')
    const original = await readFile(settings, 'utf8')
    const read = async () =>
      (await (await fetch(`${server.url}/diagnostics`)).json()) as {
        feature_flags: Record<string, boolean>
        noise_control: Record<string, unknown>
        relation_weights: Record<string, number>
        entity_aliases: {
          total_entities: number
          with_aliases: number
          ratio: number
          sample_top5: Array<{ name: string; aliases: string[]; alias_count: number }>
        }
        tables: Array<{ name: string; rows: number }>
      }
    const before = await read()
    expect(before.feature_flags).toMatchObject({ bm25_enabled: true, graph_rank_enabled: false, rerank_enabled: false })
    expect(before.noise_control).toMatchObject({ entity_min_length: 2 })
    expect(before.relation_weights.caused_by).toBe(0.22)
    const aliases = before.entity_aliases
    expect(aliases.total_entities).toBe(before.tables.find((t) => t.name === 'entities')!.rows)
    expect(aliases.with_aliases).toBeGreaterThan(0)
    expect(aliases.ratio).toBeCloseTo(aliases.with_aliases / aliases.total_entities, 3)
    expect(aliases.sample_top5.length).toBe(Math.min(5, aliases.with_aliases))
    const counts = aliases.sample_top5.map((s) => s.alias_count)
    expect(counts).toEqual([...counts].sort((a, b) => b - a))
    for (const s of aliases.sample_top5) expect(s.aliases.length).toBe(Math.min(5, s.alias_count))
    await writeFile(
      settings,
      `${original.replace('hybrid_search:\n', 'hybrid_search:\n  use_bm25: false\n  use_degree: true\n')}entity_resolution:\n  min_name_length: 3\n`,
    )
    try {
      const after = await read()
      expect(after.feature_flags).toMatchObject({ bm25_enabled: false, graph_rank_enabled: true })
      expect(after.noise_control.entity_min_length).toBe(3)
    } finally {
      await writeFile(settings, original)
    }
  })
})
