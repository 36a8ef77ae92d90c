/**
 * The curation routes of `graphrag serve` on an offline index of the demo: each edit is a
 * curation.yaml rule (audit log: who "http"), behind the bearer token; ?update=true applies it.
 */
import { cp, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { ENTITIES } from '../../src/model/index.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'
import { readSse } from './sse.js'

const TOKEN = 'curation-test-token'

describe('graph curation routes (real server, offline demo index)', () => {
  let root: string
  let server: RunningServer
  // token null: no Authorization header.
  const send = (method: string, path: string, body?: unknown, token: string | null = TOKEN) =>
    fetch(`${server.url}${path}`, {
      method,
      headers: {
        ...(token === null ? {} : { Authorization: `Bearer ${token}` }),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    })

  beforeAll(async () => {
    root = await testdir({})
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'settings.yaml'), join(root, 'settings.yaml'))
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'input'), join(root, 'input'), { recursive: true })
    await runIndex({ root, env: {}, skipValidation: true })
    server = await startServer({ root, port: 0, env: {}, token: TOKEN })
  }, 120_000)
  afterAll(async () => server?.close())

  it('needs the token, names a bad body and an unknown entity, and writes nothing then', async () => {
    expect((await send('POST', '/graph/entities/merge', { from: 'Tobias', into: 'Nell Harrow' }, null)).status).toBe(
      401,
    )
    expect((await send('DELETE', '/graph/entities/Skelling', undefined, 'wrong-token')).status).toBe(401)
    const bad = await send('POST', '/graph/entities/merge', { from: 'Tobias' })
    expect(bad.status).toBe(400)
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain('into')
    expect((await send('PATCH', '/graph/entities/Skelling', {})).status).toBe(400)
    const unknown = await send('DELETE', '/graph/entities/Nobody%20At%20All')
    expect(unknown.status).toBe(404)
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toContain('"Nobody At All"')
    await expect(readFile(join(root, 'curation.yaml'), 'utf8')).rejects.toThrow(/ENOENT/)
  })

  it('merge, patch (rename + type) and delete write rules with the index titles; ?update=true applies them', async () => {
    const merge = await send('POST', '/graph/entities/merge', { from: 'the tobias harrows', into: 'Nell Harrow' })
    expect(merge.status).toBe(201)
    expect(await merge.json()).toMatchObject({
      rules: [{ action: 'merge', entity: 'TOBIAS HARROW', into: 'NELL HARROW' }],
      apply: expect.stringContaining('POST /index'),
    })
    const patch = await send('PATCH', '/graph/entities/kittiwake', { title: 'KITTIWAKE FERRY', type: 'VESSEL' })
    expect(((await patch.json()) as { rules: unknown[] }).rules).toEqual([
      { action: 'set_type', entity: 'KITTIWAKE', type: 'VESSEL' },
      { action: 'rename', entity: 'KITTIWAKE', to: 'KITTIWAKE FERRY' },
    ])
    const deleted = await send('DELETE', '/graph/entities/Skelling?update=true')
    expect(deleted.status).toBe(201)
    const { job } = (await deleted.json()) as { job: { id: string } }
    const events = []
    for await (const m of readSse(await send('GET', `/index/stream?job=${job.id}`))) events.push(m)
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ stage: 'done' })

    const audit = (await readFile(join(root, 'curation.audit.jsonl'), 'utf8')).trim().split('\n')
    expect(audit.map((line) => JSON.parse(line).who)).toEqual(['http', 'http', 'http', 'http'])
    const entities = await new ParquetTableStore(join(root, 'output')).read(ENTITIES)
    const titles = entities.map((e) => e.title)
    for (const gone of ['TOBIAS HARROW', 'KITTIWAKE', 'SKELLING']) expect(titles).not.toContain(gone)
    expect(entities.find((e) => e.title === 'KITTIWAKE FERRY')?.type).toBe('VESSEL')
  }, 120_000)
})
