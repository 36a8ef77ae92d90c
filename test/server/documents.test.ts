/**
 * Documents over HTTP (issue 31 item 2): list, upload (multipart, size limit, type by content, zip
 * bombs), delete, each optionally followed by an update job whose end the listing reflects.
 */
import { readdir, symlink } from 'node:fs/promises'
import { join } from 'node:path'
import { strToU8, zipSync } from 'fflate'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import type { DocumentEntry } from '../../src/server/documents.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { makeDocx } from '../support/documents.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'
import { readSse } from './sse.js'

const SETTINGS = offlineFastSettingsYaml([
  'input:',
  '  type: auto',
  'hybrid_search:',
  '  completion_model_id: null',
  'server:',
  '  max_upload_bytes: 65536',
  '  max_upload_expanded_bytes: 1048576',
])

const STORY_A = 'Captain Elsa Marr sailed the Windward from Harrowmere to the northern isles in the spring.\n'
const STORY_B = 'The harbour master of Harrowmere, Tobias Venn, kept a log of every ship that came in.\n'

type Listing = { documents: DocumentEntry[] }

describe('documents over HTTP', () => {
  let root: string
  let server: RunningServer

  beforeAll(async () => {
    root = await testdir({
      'settings.yaml': `${SETTINGS}  ingest_roots: [shared]\n`,
      'input/a.txt': STORY_A,
      'input/b.txt': STORY_B,
      'shared/notes/c.txt': 'Ada Quill kept the lighthouse on Tern Rocks for forty years.\n',
      'shared/notes/d.md': '# The ferry\n\nThe Kittiwake carried the mail to Holm End twice a week.\n',
      'shared/notes/logo.png': 'not read',
      'private/secret.txt': 'The vault code is 1234.',
    })
    await symlink(join(root, 'private', 'secret.txt'), join(root, 'shared', 'link-out.txt'))
    await symlink(join(root, 'private', 'secret.txt'), join(root, 'shared', 'notes', 'also-out.txt'))
    await runIndex({ root, env: {}, skipValidation: true })
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  }, 120_000)
  afterAll(() => server?.close())

  const list = async () => ((await (await fetch(`${server.url}/documents`)).json()) as Listing).documents
  const upload = (files: Array<[string, Uint8Array | string]>, query = '') => {
    const form = new FormData()
    for (const [name, content] of files) form.append('file', new Blob([content]), name)
    return fetch(`${server.url}/documents${query}`, { method: 'POST', body: form })
  }
  const message = async (res: Response) => ((await res.json()) as { error: { message: string } }).error.message
  const finish = async (job: string) => {
    const events = []
    for await (const m of readSse(await fetch(`${server.url}/index/stream?job=${job}`))) events.push(m)
    return JSON.parse(events.at(-1)!.data) as { stage: string }
  }

  it('GET /documents lists the indexed documents with their text units', async () => {
    const docs = await list()
    expect(docs.map((d) => [d.title, d.status, d.file])).toEqual([
      ['a.txt', 'indexed', 'a.txt'],
      ['b.txt', 'indexed', 'b.txt'],
    ])
    for (const d of docs) {
      expect(d.id).toMatch(/^[0-9a-f]{128}$/)
      expect(d.text_units).toBeGreaterThan(0)
      expect(d.size).toBe(Buffer.byteLength(d.title === 'a.txt' ? STORY_A : STORY_B))
      expect(new Date(d.added).toISOString()).toBe(d.added)
    }
  })

  it('POST /ranking/preview: each row carries the seed API fields; degraded says when a signal was missing', async () => {
    const preview = async (question: string) => {
      const res = await fetch(`${server.url}/ranking/preview`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ question }),
      })
      const text = await res.text()
      expect(res.status, text).toBe(200)
      return JSON.parse(text) as {
        ranking: Array<Record<string, unknown>>
        degraded: boolean
        warnings: Array<{ type: string }>
      }
    }
    const found = await preview('Where did Captain Elsa Marr sail the Windward?')
    expect(found.ranking.length).toBeGreaterThan(0)
    for (const row of found.ranking) {
      expect(row).toMatchObject({
        score_raw: expect.any(Number),
        base_norm: row.fused_norm,
        composite_score: row.composite,
        final_score: row.composite,
      })
      const b = row.bonuses as Record<string, number>
      expect(row.bonus).toBeCloseTo(b.shared_entities! + b.cooccurrence! + b.edge! + b.degree!, 12)
      expect(row).toHaveProperty('rel_type')
      expect(row).toHaveProperty('rel_conf')
      expect((row.composite_score as number) - (row.base_norm as number)).toBeCloseTo(row.bonus as number, 9)
    }
    expect(found.degraded).toBe(found.warnings.some((w) => w.type === 'no_entities_matched'))
    const lost = await preview('xyzzy plugh frobozz')
    expect(lost.warnings.map((w) => w.type)).toContain('no_entities_matched')
    expect(lost.degraded).toBe(true)
  })

  it('refuses bad files before storing any: too big, wrong type by content, zip bombs, unsafe names', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13])
    const bomb = zipSync({ 'word/document.xml': new Uint8Array(8 * 1024 * 1024) }, { level: 9 })
    expect(bomb.length).toBeLessThan(65536)
    const cases: Array<[Array<[string, Uint8Array | string]>, number, RegExp]> = [
      [[['big.txt', 'x'.repeat(70_000)]], 413, /server\.max_upload_bytes/],
      [[['photo.txt', png]], 415, /photo\.txt: this is a PNG image, not text/],
      [[['fake.pdf', 'just text']], 415, /fake\.pdf: not a PDF/],
      [[['renamed.docx', zipSync({ 'other.xml': strToU8('<x/>') })]], 415, /no word\/document\.xml inside/],
      [[['bomb.docx', bomb]], 413, /bomb\.docx: expands to 8388\d+ bytes.*max_upload_expanded_bytes/],
      [[['tool.exe', 'MZ']], 415, /no reader for this file type/],
      [[['empty.txt', '   ']], 415, /empty\.txt: gives no document/],
      [[['../escape.txt', 'text']], 400, /expected a plain file name/],
      [[['.hidden.txt', 'text']], 400, /expected a plain file name/],
      // One bad file: the good one beside it is not stored either.
      [
        [
          ['good.txt', 'A good story about the harbour.'],
          ['bad.pdf', 'not a pdf'],
        ],
        415,
        /bad\.pdf/,
      ],
    ]
    for (const [files, status, pattern] of cases) {
      const res = await upload(files)
      expect(res.status, files[0]![0]).toBe(status)
      expect(await message(res)).toMatch(pattern)
    }
    expect((await readdir(join(root, 'input'))).sort()).toEqual(['a.txt', 'b.txt'])
    const none = await fetch(`${server.url}/documents`, { method: 'POST', body: new FormData() })
    expect(none.status).toBe(400)
    const json = await fetch(`${server.url}/documents`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(json.status).toBe(415)
  })

  it('uploads files (a .docx read by content) as new and an edited file as edited, with no job unless asked', async () => {
    const docx = await makeDocx(['The lighthouse keeper Ada Quill lit the lamp every night at Harrowmere.'])
    const res = await upload([
      ['lighthouse.docx', docx],
      ['a.txt', `${STORY_A}She came back in the autumn.\n`],
    ])
    expect(res.status).toBe(201)
    const body = (await res.json()) as { documents: DocumentEntry[]; job?: unknown }
    expect(body.job).toBeUndefined()
    expect(body.documents.map((d) => [d.file, d.status, d.text_units])).toEqual([
      ['a.txt', 'edited', 0],
      ['lighthouse.docx', 'new', 0],
    ])
    expect(body.documents[1]!.size).toBe(docx.length)
    expect((await list()).map((d) => [d.file, d.status])).toEqual([
      ['a.txt', 'edited'],
      ['b.txt', 'indexed'],
      ['lighthouse.docx', 'new'],
    ])
  })

  it('DELETE /documents/{id} removes the file; the index keeps it as deleted until the update, which then runs on ?update=true', async () => {
    const b = (await list()).find((d) => d.file === 'b.txt')!
    const res = await fetch(`${server.url}/documents/${b.id}?update=false`, { method: 'DELETE' })
    expect(await res.json()).toEqual({ deleted: b.id })
    expect((await list()).find((d) => d.id === b.id)).toMatchObject({ status: 'deleted', file: null })
    expect((await fetch(`${server.url}/documents/${b.id}`, { method: 'DELETE' })).status).toBe(404)
    expect((await fetch(`${server.url}/documents/nope`, { method: 'DELETE' })).status).toBe(404)
    expect((await fetch(`${server.url}/documents/${b.id}?update=maybe`, { method: 'DELETE' })).status).toBe(400)
    // An upload asking for the update starts it; the listing then matches the new index.
    const up = await upload(
      [['pier.txt', 'The town council of Harrowmere built a new pier after the storm.\n']],
      '?update=true',
    )
    const { job } = (await up.json()) as { job: { id: string } }
    expect(job.id).toMatch(/[0-9a-f-]{36}/)
    expect(await finish(job.id)).toEqual({ stage: 'done' })
    const after = await list()
    expect(after.map((d) => [d.file, d.status])).toEqual([
      ['a.txt', 'indexed'],
      ['lighthouse.docx', 'indexed'],
      ['pier.txt', 'indexed'],
    ])
    expect(after.every((d) => d.text_units > 0)).toBe(true)
  }, 120_000)

  it('POST /ingest reads only inside server.ingest_roots: outside paths, .. escapes and symlinks out are refused; a folder inside is copied and updated', async () => {
    const ingest = (body: unknown) =>
      fetch(`${server.url}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
    for (const path of [
      join(root, 'private', 'secret.txt'),
      join(root, 'shared', '..', 'private', 'secret.txt'),
      'private/secret.txt',
      join(root, 'shared', 'link-out.txt'),
      '/etc/passwd',
    ]) {
      const res = await ingest({ path })
      expect(res.status, path).toBe(403)
      expect(await message(res)).toContain('outside server.ingest_roots')
    }
    expect((await ingest({ path: 'shared/none.txt' })).status).toBe(404)
    expect((await ingest({ path: 'shared/notes', incremental: 'yes' })).status).toBe(400)
    const res = await ingest({ path: 'shared/notes', incremental: true })
    expect(res.status).toBe(202)
    const body = (await res.json()) as {
      job: string
      mode: string
      stream: string
      files: string[]
      skipped: Array<{ path: string; reason: string }>
    }
    expect(body.mode).toBe('update')
    expect(body.files).toEqual(['notes/c.txt', 'notes/d.md'])
    expect(body.skipped).toEqual([
      { path: 'notes/also-out.txt', reason: 'outside server.ingest_roots' },
      { path: 'notes/logo.png', reason: 'no reader for this file type' },
    ])
    const events = []
    for await (const m of readSse(await fetch(`${server.url}${body.stream}`))) events.push(m)
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ stage: 'done' })
    const docs = await list()
    expect(docs.filter((d) => d.file?.startsWith('notes/')).map((d) => [d.file, d.status])).toEqual([
      ['notes/c.txt', 'indexed'],
      ['notes/d.md', 'indexed'],
    ])
    expect(JSON.stringify(docs)).not.toContain('vault')
  }, 120_000)
})

describe('POST /ingest without ingest_roots', () => {
  it('is refused (403): ingest by path is off', async () => {
    const root = await testdir({ 'settings.yaml': SETTINGS, 'shared/a.txt': STORY_A })
    const server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
    try {
      const res = await fetch(`${server.url}/ingest`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ path: join(root, 'shared') }),
      })
      expect(res.status).toBe(403)
      expect(((await res.json()) as { error: { message: string } }).error.message).toContain('server.ingest_roots')
    } finally {
      await server.close()
    }
  })
})
