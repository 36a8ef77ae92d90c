/**
 * The web UI's HTTP side on a real server with a token: the page and bundle load without the token
 * (the page must load to ask for it) under a strict CSP, only the known asset files are served, and
 * the data routes (/ui/graph, /ui/passages, /ui/stats) need the token and answer from the index.
 */
import { cp, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ViewerData } from '../../src/export/viewer-data.js'
import { DOCUMENTS, TEXT_UNITS } from '../../src/model/index.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { ParquetTableStore } from '../../src/storage/index.js'
import { handMadeIndex } from '../export/fixture.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const TOKEN = 'ui-routes-token'
const auth = { authorization: `Bearer ${TOKEN}` }

describe('web UI routes of graphrag serve', () => {
  let server: RunningServer
  let empty: RunningServer
  let root: string

  beforeAll(async () => {
    // The export tests' hand-made tables, plus the text units and documents the passages come from.
    root = await testdir()
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'settings.yaml'), join(root, 'settings.yaml'))
    await cp(await handMadeIndex(), join(root, 'output'), { recursive: true })
    const store = new ParquetTableStore(join(root, 'output'))
    await store.write(DOCUMENTS, [
      {
        id: 'd1',
        human_readable_id: 1,
        title: 'engine.txt',
        text: 'x',
        text_unit_ids: ['t1'],
        creation_date: '',
        raw_data: null,
      },
    ])
    const unit = (id: string, n: number, text: string) => ({
      id,
      human_readable_id: n,
      text,
      n_tokens: 10,
      document_id: 'd1',
      entity_ids: [],
      relationship_ids: [],
      covariate_ids: [],
    })
    await store.write(TEXT_UNITS, [unit('t1', 1, 'Ada wrote the first program.'), unit('t2', 2, 'Unrelated.')])
    await writeFile(join(root, 'output', 'stats.json'), JSON.stringify({ total_runtime: 1.5, num_documents: 1 }))
    server = await startServer({ root, port: 0, token: TOKEN, env: {} })
    const bare = await testdir()
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'settings.yaml'), join(bare, 'settings.yaml'))
    empty = await startServer({ root: bare, port: 0, env: {} })
  })
  afterAll(async () => {
    await server?.close()
    await empty?.close()
  })

  it('serves the page and its bundle without the token, with a CSP that allows only this server', async () => {
    const page = await fetch(`${server.url}/`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toContain('text/html')
    const csp = page.headers.get('content-security-policy') ?? ''
    expect(csp).toContain("script-src 'self'")
    expect(csp).toContain("frame-ancestors 'none'")
    const html = await page.text()
    expect(html).toContain('<script src="/ui/app.js"></script>')
    for (const [asset, type] of [
      ['app.js', 'text/javascript'],
      ['app.css', 'text/css'],
      ['viewer.css', 'text/css'],
    ]) {
      const res = await fetch(`${server.url}/ui/${asset}`)
      expect(res.status, asset).toBe(200)
      expect(res.headers.get('content-type')).toContain(type)
      expect((await res.text()).length).toBeGreaterThan(100)
    }
    // No CDN: the bundle names no other site to load code from.
    expect(await (await fetch(`${server.url}/ui/app.js`)).text()).not.toMatch(/https?:\/\/(cdn|unpkg|esm\.sh)/)
  })

  it('serves no other file: unknown names and path tricks are 404 or refused', async () => {
    for (const path of ['/ui/other.js', '/ui/..%2Fpackage.json', '/ui/app.js.map', '/ui/../package.json']) {
      const res = await fetch(`${server.url}${path}`, { headers: auth })
      expect([401, 404], path).toContain(res.status)
      expect(await res.text()).not.toContain('"name": "graphrag"')
    }
  })

  it('the data routes need the token', async () => {
    for (const path of ['/ui/graph', '/ui/passages?entity=LONDON', '/ui/stats'])
      expect((await fetch(`${server.url}${path}`)).status, path).toBe(401)
  })

  it('GET /ui/graph: the viewer data of the live index, at the level asked for', async () => {
    const top = (await (await fetch(`${server.url}/ui/graph`, { headers: auth })).json()) as ViewerData
    expect(top.level).toBe(0)
    expect(top.levels).toEqual([0, 1])
    expect(top.nodes.map((n) => n.key).sort()).toEqual([
      'ADA LOVELACE',
      'ANALYTICAL ENGINE',
      'CHARLES BABBAGE',
      'HERMIT',
      'LONDON',
    ])
    expect(top.edges).toHaveLength(5)
    const deeper = (await (await fetch(`${server.url}/ui/graph?level=1`, { headers: auth })).json()) as ViewerData
    expect(deeper.level).toBe(1)
    expect(deeper.communities.map((c) => c.title)).toContain('Programming the Engine')
    const missing = await fetch(`${server.url}/ui/graph?level=7`, { headers: auth })
    expect(missing.status).toBe(400)
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe(
      'level 7: the index has community levels 0, 1',
    )
    expect((await fetch(`${server.url}/ui/graph?level=x`, { headers: auth })).status).toBe(400)
  })

  it('GET /ui/passages: an entity’s passages or one text unit, with the document title', async () => {
    const byEntity = await (await fetch(`${server.url}/ui/passages?entity=ADA%20LOVELACE`, { headers: auth })).json()
    expect(byEntity).toEqual({
      total: 1,
      passages: [{ id: 't1', human_readable_id: 1, document: 'engine.txt', text: 'Ada wrote the first program.' }],
    })
    const byUnit = (await (await fetch(`${server.url}/ui/passages?text_unit=t2`, { headers: auth })).json()) as {
      passages: { text: string }[]
    }
    expect(byUnit.passages.map((p) => p.text)).toEqual(['Unrelated.'])
    // A source cited as `Sources 1` (its human-readable id): the passage with its document's title.
    const bySource = (await (await fetch(`${server.url}/ui/passages?source=1`, { headers: auth })).json()) as {
      passages: { id: string; document: string }[]
    }
    expect(bySource.passages.map((p) => [p.id, p.document])).toEqual([['t1', 'engine.txt']])
    const noSource = await fetch(`${server.url}/ui/passages?source=99`, { headers: auth })
    expect(noSource.status).toBe(404)
    expect(((await noSource.json()) as { error: { message: string } }).error.message).toContain(
      'human-readable id "99"',
    )
    expect((await fetch(`${server.url}/ui/passages?entity=NOBODY`, { headers: auth })).status).toBe(404)
    expect((await fetch(`${server.url}/ui/passages`, { headers: auth })).status).toBe(400)
  })

  it('GET /ui/stats: the last run’s stats, or null before any run; /ui/graph before any index is a 404 that says so', async () => {
    expect(await (await fetch(`${server.url}/ui/stats`, { headers: auth })).json()).toEqual({
      stats: { total_runtime: 1.5, num_documents: 1 },
    })
    expect(await (await fetch(`${empty.url}/ui/stats`)).json()).toEqual({ stats: null })
    const graph = await fetch(`${empty.url}/ui/graph`)
    expect(graph.status).toBe(404)
    expect(((await graph.json()) as { error: { message: string } }).error.message).toContain('run `graphrag index`')
  })
})
