/**
 * A project without an index over HTTP (issue 43 item 1): GET /documents says there is none and
 * lists the input files as new; an upload before the first index is stored in input storage; the
 * first index job (POST /index mode index, followed live on /index/stream) indexes both, and a
 * question is then answered.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DocumentEntry } from '../../src/server/documents.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'
import { readSse } from './sse.js'

const SETTINGS = offlineFastSettingsYaml(['basic_search:', '  completion_model_id: null'])

type Listing = { documents: DocumentEntry[]; index: boolean }

describe('a project without an index, over HTTP', () => {
  let root: string
  let server: RunningServer
  beforeAll(async () => {
    root = await testdir({
      'settings.yaml': SETTINGS,
      'input/a.txt': 'Captain Elsa Marr sailed the Windward from Harrowmere to the northern isles.\n',
    })
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  })
  afterAll(() => server?.close())

  const list = async () => (await (await fetch(`${server.url}/documents`)).json()) as Listing

  it('stores an upload, builds the first index with live progress, then answers', async () => {
    expect(await list()).toMatchObject({ index: false, documents: [{ title: 'a.txt', status: 'new' }] })
    const form = new FormData()
    form.append('file', new Blob(['The keeper Ada Quill kept the lighthouse on Tern Rocks.\n']), 'b.txt')
    const uploaded = await fetch(`${server.url}/documents?update=false`, { method: 'POST', body: form })
    expect(uploaded.status).toBe(201)
    expect(await readFile(join(root, 'input', 'b.txt'), 'utf8')).toContain('Ada Quill')
    const before = await list()
    expect(before.index).toBe(false)
    expect(before.documents.map((d) => [d.title, d.status]).sort()).toEqual([
      ['a.txt', 'new'],
      ['b.txt', 'new'],
    ])
    const started = await fetch(`${server.url}/index`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"mode":"index"}',
    })
    expect(started.status).toBe(202)
    const { job } = (await started.json()) as { job: string }
    const events = []
    for await (const m of readSse(await fetch(`${server.url}/index/stream?job=${job}`))) events.push(m)
    expect(events[0]).toMatchObject({ event: 'start' })
    expect(events.some((e) => /"stage":"pipeline"/.test(e.data))).toBe(true)
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ stage: 'done' })
    const after = await list()
    expect(after.index).toBe(true)
    expect(after.documents.map((d) => [d.title, d.status]).sort()).toEqual([
      ['a.txt', 'indexed'],
      ['b.txt', 'indexed'],
    ])
    const answer = await fetch(`${server.url}/query`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ question: 'Who kept the lighthouse?', method: 'basic' }),
    })
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { response: string }).response).toContain('Ada Quill')
  }, 120_000)
})
