/**
 * The curation routes of `graphrag serve` on an offline index of the demo: each edit is a
 * curation.yaml rule (audit log: who "http"), behind the bearer token; ?update=true applies it.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { ENTITIES } from '../../src/model/index.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { testdir } from '../support/testdir.js'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { RELATIONSHIPS } from '../../src/model/index.js'
import { exactTables } from '../support/communities.js'
import { indexedDemoCopy } from '../support/demo-index.js'
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
    root = await indexedDemoCopy()
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
  it('relationships: added over HTTP, deleted over MCP; an update with a new document equals a full index with the same curation.yaml', async () => {
    const bad = await send('POST', '/graph/relationships', { source: 'Nell Harrow', target: 'Greyling', weight: -1 })
    expect(bad.status).toBe(400)
    const added = await send('POST', '/graph/relationships', {
      source: 'nell harrow',
      target: 'the greyling',
      description: 'Nell Harrow sails for the Greyling',
      weight: 2,
    })
    expect(added.status, await added.clone().text()).toBe(201)
    expect(((await added.json()) as { rules: unknown[] }).rules).toEqual([
      {
        action: 'add_relationship',
        source: 'NELL HARROW',
        target: 'GREYLING',
        description: 'Nell Harrow sails for the Greyling',
        weight: 2,
      },
    ])
    const output = new ParquetTableStore(join(root, 'output'))
    const existing = (await output.read(RELATIONSHIPS)).find(
      (r) => r.source !== 'NELL HARROW' && r.target !== 'NELL HARROW',
    )!
    const client = new Client({ name: 'curation-test', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
        requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
      }),
    )
    try {
      const noDescription = await client.callTool({
        name: 'curate_relationship',
        arguments: { action: 'add', source: 'Nell Harrow', target: 'Greyling' },
      })
      expect(noDescription.isError).toBe(true)
      const deleted = await client.callTool({
        name: 'curate_relationship',
        arguments: { action: 'delete', source: existing.target, target: existing.source },
      })
      expect(deleted.isError, JSON.stringify(deleted.content)).toBeFalsy()
    } finally {
      await client.close()
    }
    const unknown = await send('DELETE', '/graph/relationships/Nobody%20At%20All/Greyling')
    expect(unknown.status).toBe(404)

    await writeFile(
      join(root, 'input', '06-the-new-pier.txt'),
      'Nell Harrow opened the New Pier beside the Greyling.\n',
    )
    const job = await send('POST', '/index', { mode: 'update' })
    expect(job.status, await job.clone().text()).toBe(202)
    const { stream } = (await job.json()) as { stream: string }
    const events = []
    for await (const m of readSse(await send('GET', stream))) events.push(m)
    expect(JSON.parse(events.at(-1)!.data)).toEqual({ stage: 'done' })

    const relationships = await output.read(RELATIONSHIPS)
    const between = (a: string, b: string) =>
      relationships.find((r) => (r.source === a && r.target === b) || (r.source === b && r.target === a))
    expect(between('NELL HARROW', 'GREYLING')?.description).toContain('Nell Harrow sails for the Greyling')
    expect(between(existing.source, existing.target)).toBeUndefined()
    const audit = (await readFile(join(root, 'curation.audit.jsonl'), 'utf8')).trim().split('\n')
    expect(audit.slice(-2).map((line) => JSON.parse(line).who)).toEqual(['http', 'mcp'])

    const full = await testdir({})
    await cp(join(root, 'settings.yaml'), join(full, 'settings.yaml'))
    await cp(join(root, 'input'), join(full, 'input'), { recursive: true })
    await cp(join(root, 'curation.yaml'), join(full, 'curation.yaml'))
    await rm(join(full, 'output'), { recursive: true, force: true })
    await runIndex({ root: full, env: {}, skipValidation: true })
    expect(await exactTables(join(root, 'output'))).toEqual(await exactTables(join(full, 'output')))
  }, 120_000)
})
