// The seed design's relations-only incremental ingest (POST /ingest?inc_rel_only=true) through the
// real server on 127.0.0.1 and the fake model server: typed chunk-graph edges sought for the new
// text units of an ingested file only, added to the kept edges, with the design's stage names and
// result; its parameters' refusals name them.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { duckQuery } from '../support/duckdb.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { fastChatSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'
import { readSse } from './sse.js'

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })

// Each sentence names its own topic, so no two chunks are equal texts.
const LOG = ['ropes', 'sails', 'anchors', 'lanterns', 'barrels', 'compasses', 'charts', 'oars']
  .map((thing) => `The harbour log lists the ${thing} checked by the night watch, and the ${thing} were sound.`)
  .join(' ')

interface Event {
  stage: string
  [key: string]: unknown
}

describe('POST /ingest?inc_rel_only=true (real server, fake chat model)', () => {
  let fake: FakeLlm
  let root: string
  let server: RunningServer
  let units: Array<{ id: string; hrid: number }>
  const ingest = (query: string) => post(`${server.url}/ingest?${query}`, { path: 'incoming/log.txt' })
  const typedEdges = async () =>
    (
      await duckQuery(
        `SELECT s.human_readable_id::INTEGER AS s, t.human_readable_id::INTEGER AS t FROM read_parquet('${join(root, 'output', 'chunk_edges.parquet')}') e JOIN read_parquet('${join(root, 'output', 'text_units.parquet')}') s ON s.id = e.source_id JOIN read_parquet('${join(root, 'output', 'text_units.parquet')}') t ON t.id = e.target_id WHERE e.origin = 'llm' ORDER BY s, t`,
      )
    ).map((r) => `${r.s}→${r.t}`)

  beforeAll(async () => {
    fake = await startFakeLlm()
    // Typed edges off in the settings: the ordinary ingest makes none, the relations-only run asks for them.
    root = await testdir({
      'settings.yaml': fastChatSettingsYaml(fake.baseUrl, {
        extra: ['chunking:', '  size: 20', '  overlap: 0', 'server:', '  ingest_roots: [incoming]'],
      }),
    })
    await mkdir(join(root, 'incoming'))
    await writeFile(join(root, 'incoming', 'log.txt'), LOG)
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
    const first = await post(`${server.url}/ingest?wait=true`, { path: 'incoming/log.txt' })
    expect(first.status, await first.clone().text()).toBe(200)
    units = (
      await duckQuery(
        `SELECT id, human_readable_id::INTEGER AS hrid FROM read_parquet('${join(root, 'output', 'text_units.parquet')}') ORDER BY hrid`,
      )
    ).map((r) => ({ id: String(r.id), hrid: Number(r.hrid) }))
  }, 120_000)
  afterAll(async () => {
    await server?.close()
    await fake?.close()
  })

  it('asks about the new units and the window before them only, adds their edges, and reports with the design stages', async () => {
    expect(units.length).toBeGreaterThanOrEqual(6)
    expect(await typedEdges()).toEqual([])
    const asked = fake.requests.length
    const res = await ingest(
      'inc_rel_only=true&detect_after=true&new_count=3&rel_window=2&rel_truncate=12&rel_temperature=0&progress=true',
    )
    const body = (await res.json()) as Record<string, unknown> & { progress: Event[] }
    expect(res.status, JSON.stringify(body)).toBe(200)
    const n = units.length
    // Windows of two sliding by one from the last old unit: (n-4, n-3), (n-3, n-2), (n-2, n-1).
    expect(body).toMatchObject({
      mode: 'relations_incremental',
      created: 3,
      skipped: 0,
      pairs: 3,
      old: n - 3,
      new: 3,
      window: 2,
    })
    const calls = fake.requests.slice(asked).filter((r) => r.kind !== 'preflight')
    expect(calls.map((r) => r.kind)).toEqual(['chunk_graph', 'chunk_graph', 'chunk_graph'])
    for (const call of calls) {
      expect((call.body as { temperature?: number }).temperature).toBe(0)
      // 12 characters are 3 tokens: each unit is cut short.
      expect(JSON.stringify(call.body)).toContain('…')
      expect(JSON.stringify(call.body)).not.toContain('checked by the night watch')
    }
    expect(await typedEdges()).toEqual([`${n - 3}→${n - 4}`, `${n - 2}→${n - 3}`, `${n - 1}→${n - 2}`])
    const start = body.progress.find((e) => e.stage === 'relation_incremental_start')
    expect(start).toMatchObject({ old: n - 3, new: 3, window: 2, pairs: 3, workflow: 'create_chunk_graph' })
    expect(body.progress.some((e) => e.stage === 'relation_incremental_progress')).toBe(true)
    expect(body.progress.find((e) => e.stage === 'relation_incremental_done')).toMatchObject({ created: 3, skipped: 0 })
    // The stream of this path's relations-only job: the design's result event, then done.
    const messages = []
    for await (const m of readSse(await fetch(`${server.url}/ingest/stream?path=incoming/log.txt&inc_rel_only=true`)))
      messages.push(m)
    const result = JSON.parse(messages.find((m) => m.event === 'result')!.data) as { stage: string; result: unknown }
    expect(result).toMatchObject({ stage: 'result', result: { mode: 'relations_incremental', created: 3 } })
    expect(JSON.parse(messages.at(-1)!.data)).toEqual({ stage: 'done' })
  }, 120_000)

  it('skips the edges that exist and removes none; new_after takes the last old unit by id or human_readable_id', async () => {
    const before = await typedEdges()
    // The same request again: the run is not resumed away; every edge it finds exists already.
    const again = await ingest(
      'inc_rel_only=true&detect_after=true&new_count=3&rel_window=2&rel_truncate=12&rel_temperature=0&wait=true',
    )
    expect(await again.json()).toMatchObject({ mode: 'relations_incremental', created: 0, skipped: 3, new: 3 })
    const byId = await ingest(`inc_rel_only=true&new_after=${units.at(-2)!.id}&rel_window=2&wait=true`)
    expect(await byId.json()).toMatchObject({ created: 0, skipped: 1, new: 1, pairs: 1 })
    const byNumber = await ingest(`inc_rel_only=true&new_after=${units.at(-4)!.hrid}&rel_window=3&wait=true`)
    // Windows of three sliding from two units before the boundary: [n-5, n-4, n-3], [n-4 …], [n-3 …].
    // The model's old-to-old edge (n-4 → n-5) is not added; the three others exist already.
    const n = units.length
    expect(await byNumber.json()).toMatchObject({ created: 0, skipped: 3, new: 3, old: n - 3, pairs: 6 })
    expect(await typedEdges()).toEqual(before)
    expect(before).not.toContain(`${n - 4}→${n - 5}`)
    // Without wait: 202 at once with the job and its stream, which ends when the job does.
    const queued = await ingest(`inc_rel_only=true&new_after=${units.at(-2)!.id}&rel_window=2`)
    expect(queued.status).toBe(202)
    const accepted = (await queued.json()) as { job: string; mode: string; stream: string }
    expect(accepted).toEqual({
      job: expect.any(String),
      mode: 'relations',
      stream: `/ingest/stream?job=${accepted.job}`,
    })
    const events = []
    for await (const m of readSse(await fetch(`${server.url}${accepted.stream}`))) events.push(m)
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ stage: 'done' })
  }, 120_000)

  it('refuses a missing boundary, an unknown unit, too many new units and stray parameters, naming each', async () => {
    const refusals: Array<[string, number, string]> = [
      ['inc_rel_only=true', 400, 'new_after: required with inc_rel_only=true (or detect_after=true&new_count=N)'],
      ['inc_rel_only=true&new_after=nope', 400, 'new_after: no text unit of'],
      ['inc_rel_only=true&detect_after=true&new_count=999', 400, `text units, fewer than 999`],
      ['inc_rel_only=true&detect_after=true', 400, 'new_count: required with detect_after=true'],
      ['inc_rel_only=true&new_count=2', 400, 'new_count: applies only with detect_after=true'],
      ['inc_rel_only=true&new_after=1&rel_window=1', 400, 'rel_window: expected a whole number from 2 to'],
      ['inc_rel_only=true&new_after=1&rel_temperature=3', 400, 'rel_temperature: expected a number from 0 to 2'],
      ['inc_rel_only=true&new_after=1&refresh=true', 400, 'refresh: not with inc_rel_only=true'],
      ['rel_window=2', 400, 'rel_window: applies only with inc_rel_only=true'],
      [`inc_rel_only=true&new_after=${units.at(-1)!.hrid}`, 400, 'is the last text unit of'],
    ]
    for (const [query, status, message] of refusals) {
      const res = await ingest(query)
      expect(res.status, query).toBe(status)
      expect(((await res.json()) as { detail: string }).detail, query).toContain(message)
    }
    // Text appended since the file was ingested: it must be ingested first.
    await writeFile(join(root, 'incoming', 'log.txt'), `${LOG} The watch ended at dawn.`)
    const grown = await ingest('inc_rel_only=true&new_after=1')
    expect(grown.status).toBe(409)
    expect(((await grown.json()) as { detail: string }).detail).toMatch(
      /log\.txt changed since it was indexed; POST \/ingest it first/,
    )
    await writeFile(join(root, 'incoming', 'other.txt'), 'A file never ingested.')
    const absent = await post(`${server.url}/ingest?inc_rel_only=true&new_after=1`, { path: 'incoming/other.txt' })
    expect(absent.status).toBe(404)
    expect(((await absent.json()) as { detail: string }).detail).toMatch(/^path: .*other\.txt is not in the index/)
  })
})
