/**
 * Issue 47 item 4: uploads, deletes and /ingest on an input_storage in a container or bucket change
 * the store itself, not only the server's local mirror of it (which every listing and every run
 * makes equal to the store again, so a change made there alone was acknowledged and then lost).
 * On Azurite and on the S3 test server.
 */
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { DocumentEntry } from '../../src/server/documents.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import type { ObjectStore } from '../../src/storage/object/object-store.js'
import { remoteLocation } from '../../src/storage/object/remote.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

const servers = useObjectStoreServers()

const SETTINGS = offlineFastSettingsYaml([
  'hybrid_search:',
  '  completion_model_id: null',
  'server:',
  '  ingest_roots: [shared]',
])

type Backend = { yaml: string; store: ObjectStore }

const backends: Record<string, () => Promise<Backend>> = {
  azurite: async () => {
    const container = await servers.azurite.container(`docs${Date.now()}`)
    const spec = {
      ...NO_REMOTE_KEYS,
      type: 'blob',
      base_dir: 'corpus',
      connection_string: servers.azurite.connectionString,
      container_name: container,
    }
    const yaml = `input_storage:\n  type: blob\n  connection_string: "${spec.connection_string}"\n  container_name: ${container}\n  base_dir: corpus\n`
    return { yaml, store: remoteLocation('input_storage', spec).store() }
  },
  s3: async () => {
    const bucket = await servers.s3.bucket(`docs${Date.now()}`)
    const spec = { ...NO_REMOTE_KEYS, type: 's3', base_dir: 'corpus', bucket, endpoint_url: servers.s3.endpoint }
    const yaml = `input_storage:\n  type: s3\n  bucket: ${bucket}\n  endpoint_url: ${servers.s3.endpoint}\n  base_dir: corpus\n`
    return { yaml, store: remoteLocation('input_storage', spec).store() }
  },
}

describe.each(Object.keys(backends))('documents over HTTP with input_storage on %s', (name) => {
  let server: RunningServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('an upload, a delete and an ingest reach the store; a fresh server lists what the store holds', async () => {
    const backend = await backends[name]!()
    const root = await testdir({
      'settings.yaml': `${SETTINGS}${backend.yaml}`,
      'shared/notes/c.txt': 'Ada Quill kept the lighthouse on Tern Rocks for forty years.\n',
    })
    const start = async () => startServer({ root, port: 0, env: { ...process.env, GRAPHRAG_SERVER_TOKEN: undefined } })
    server = await start()
    const keys = async () => (await backend.store.list('corpus/')).map((o) => o.key)
    const form = new FormData()
    form.append('file', new Blob(['Captain Elsa Marr sailed the Windward from Harrowmere.\n']), 'a.txt')
    form.append('file', new Blob(['Tobias Venn kept a log of every ship that came in.\n']), 'b.txt')
    const uploaded = await fetch(`${server.url}/documents?update=false`, { method: 'POST', body: form })
    expect(uploaded.status, await uploaded.clone().text()).toBe(201)
    expect(await keys()).toEqual(['corpus/a.txt', 'corpus/b.txt'])

    const listed = async () =>
      ((await (await fetch(`${server!.url}/documents`)).json()) as { documents: DocumentEntry[] }).documents
    const a = (await listed()).find((d) => d.file === 'a.txt')!
    const deleted = await fetch(`${server.url}/documents/${a.id}?update=false`, { method: 'DELETE' })
    expect(deleted.status, await deleted.clone().text()).toBe(200)
    expect(await keys()).toEqual(['corpus/b.txt'])

    const ingest = await fetch(`${server.url}/ingest`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ path: 'shared/notes' }),
    })
    expect(ingest.status, await ingest.clone().text()).toBe(202)
    expect(await keys()).toEqual(['corpus/b.txt', 'corpus/notes/c.txt'])
    const { job } = (await ingest.json()) as { job: string }
    await fetch(`${server.url}/index/stream?job=${job}`).then((r) => r.text())

    // Another server (a fresh machine: no local mirror) sees exactly what the store holds.
    await server.close()
    await rm(join(root, '.graphrag'), { recursive: true, force: true })
    server = await start()
    expect((await listed()).map((d) => d.file).sort()).toEqual(['b.txt', 'notes/c.txt'])
  }, 120_000)
})
