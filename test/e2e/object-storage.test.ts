/**
 * An index in object storage, end to end through the CLI and the fake model server: inputs,
 * tables, vectors, cache and logs in Azurite (Azure Blob) and in s3rver (S3) give the same tables
 * as a local-folder index of the same inputs; every query method reads it; a second writer is
 * refused. (s3rver ignores conditional writes: the lock's create-only write and the pointer's
 * replace-if-unchanged write are proven against Azurite; on real S3 the same code sends
 * If-None-Match / If-Match, see docs/storage.md.)
 */
import { mkdtemp } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AzureBlobStore } from '../../src/storage/object/azure-blob.js'
import { pullGeneration, readPointer } from '../../src/storage/object/generations.js'
import type { ObjectStore } from '../../src/storage/object/object-store.js'
import { remoteLocation, type StorageSettings } from '../../src/storage/object/remote.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { runCli } from '../support/cli.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { comparableTables, lanceRowCounts } from '../support/index-files.js'
import { startAzurite, startS3Server, type Azurite, type S3Server } from '../support/object-stores.js'
import { testdir } from '../support/testdir.js'

const DOCS: Record<string, string> = {
  'harbour.txt': 'Captain Olsen rang the Fog Bell at Kettle Harbour while Marta Quill counted the boats.',
  'council.txt': 'The Harbour Council met Marta Quill and Captain Olsen to discuss the Lighthouse Fund.',
  'mill.txt': 'Ezra Pike runs the Saltmill beside Kettle Harbour and sells rope to Captain Olsen.',
}

interface Backend {
  name: string
  /** The YAML keys naming the container or bucket. */
  keys: string
  env: Record<string, string>
  store: ObjectStore
  spec: (baseDir: string) => StorageSettings
}

let llm: FakeLlm
let azurite: Azurite
let s3: S3Server
let local: { tables: Record<string, string>; vectors: Record<string, number> }

beforeAll(async () => {
  ;[llm, azurite, s3] = await Promise.all([startFakeLlm({ embeddingDimension: 8 }), startAzurite(), startS3Server()])
  const root = await testdir({ 'settings.yaml': settingsYaml(''), ...inputs() })
  expect((await runCli(['index', '--root', root, '--skip-validation'])).code).toBe(0)
  local = {
    tables: await comparableTables(join(root, 'output')),
    vectors: await lanceRowCounts(join(root, 'output', 'lancedb')),
  }
}, 180_000)

afterAll(async () => {
  await Promise.all([llm?.close(), azurite?.stop(), s3?.stop()])
})

function inputs(): Record<string, string> {
  return Object.fromEntries(Object.entries(DOCS).map(([name, text]) => [`input/${name}`, text]))
}

function settingsYaml(storage: string): string {
  return `${fakeModelSettingsYaml(llm.baseUrl, { maxRetries: 0 })}vector_store:\n  vector_size: 8\n${storage}`
}

function storageYaml(keys: string): string {
  const section = (name: string, base: string, type = 'blob') =>
    `${name}:\n  type: ${type}\n  base_dir: ${base}\n${keys}`
  const t = keys.includes('bucket') ? 's3' : 'blob'
  return [
    section('input_storage', 'input', t),
    section('output_storage', 'output', t),
    section('update_output_storage', 'update_output', t),
    section('reporting', 'logs', t),
    `cache:\n  type: json\n  storage:\n    type: ${t}\n    base_dir: cache\n${keys.replace(/^/gm, '  ')}`,
  ].join('')
}

async function azureBackend(): Promise<Backend> {
  const container = await azurite.container(`graphrag${Date.now()}`)
  const keys = `  connection_string: "${azurite.connectionString}"\n  container_name: ${container}\n`
  return {
    name: 'azurite',
    keys,
    env: {},
    store: new AzureBlobStore({ connectionString: azurite.connectionString, containerName: container }),
    spec: (base) => ({
      ...NO_REMOTE,
      type: 'blob',
      base_dir: base,
      connection_string: azurite.connectionString,
      container_name: container,
    }),
  }
}

async function s3Backend(): Promise<Backend> {
  const bucket = await s3.bucket(`graphrag${Date.now()}`)
  Object.assign(process.env, s3.env)
  return {
    name: 's3rver',
    keys: `  bucket: ${bucket}\n  endpoint_url: ${s3.endpoint}\n`,
    env: s3.env,
    store: new S3Store({ bucket, endpointUrl: s3.endpoint }),
    spec: (base) => ({ ...NO_REMOTE, type: 's3', base_dir: base, bucket, endpoint_url: s3.endpoint }),
  }
}

const NO_REMOTE = {
  connection_string: null,
  container_name: null,
  account_url: null,
  bucket: null,
  region: null,
  endpoint_url: null,
}

/** The published generation, downloaded the way a reader does. */
async function published(backend: Backend): Promise<string> {
  const loc = remoteLocation('output_storage', backend.spec('output'))
  const found = await readPointer(loc)
  expect(found, 'no generation pointer').toBeDefined()
  const dir = join(await mkdtemp(join(tmpdir(), 'graphrag-pulled-')), found!.pointer.generation)
  await pullGeneration(loc, found!.pointer.generation, dir)
  return dir
}

describe.each([
  ['azurite', azureBackend],
  ['s3rver', s3Backend],
] as const)('an index in object storage (%s)', (_name, backendOf) => {
  let backend: Backend
  let root: string
  const cli = (args: string[]) => runCli([...args, '--root', root], { env: backend.env })

  beforeAll(async () => {
    backend = await backendOf()
    for (const [name, text] of Object.entries(DOCS)) await backend.store.put(`input/${name}`, text)
    root = await testdir({ 'settings.yaml': settingsYaml(storageYaml(backend.keys)) })
  }, 60_000)

  it('index reads inputs from the store and publishes tables and vectors equal to a local-folder index; logs and cache land in the store', async () => {
    const run = await cli(['index', '--skip-validation'])
    expect(run.code, run.stderr).toBe(0)
    const dir = await published(backend)
    expect(await comparableTables(dir)).toEqual(local.tables)
    expect(await lanceRowCounts(join(dir, 'lancedb'))).toEqual(local.vectors)
    const keys = (await backend.store.list('')).map((o) => o.key)
    expect(keys).toContain('logs/indexing-engine.log')
    expect(keys.some((k) => k.startsWith('cache/'))).toBe(true)
    expect(keys).toContain('output/.generations/current.json')
    expect(keys).not.toContain('output/.generations/lock')
  }, 120_000)

  it.each(['local', 'global', 'drift', 'basic'])(
    'query --method %s answers from the published generation',
    async (method) => {
      const run = await cli(['query', '--method', method, 'Who rang the Fog Bell?'])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout.trim().length).toBeGreaterThan(0)
    },
    60_000,
  )

  it('a second writer is refused while the lock is held, naming the holder', async () => {
    const holder = {
      pid: process.pid,
      host: hostname(),
      command: 'graphrag index',
      started: new Date().toISOString(),
      heartbeat: new Date().toISOString(),
      token: 'x',
    }
    await backend.store.put('output/.generations/lock', JSON.stringify(holder))
    try {
      const run = await cli(['index', '--skip-validation'])
      expect(run.code).not.toBe(0)
      expect(run.stderr).toMatch(new RegExp(`another graphrag run holds the lock on this index: PID ${process.pid}`))
    } finally {
      await backend.store.delete('output/.generations/lock')
    }
  }, 60_000)

  it('a re-run with unchanged inputs publishes a new generation with the same tables, keeping the previous one', async () => {
    const before = (await readPointer(remoteLocation('output_storage', backend.spec('output'))))!.pointer.generation
    const run = await cli(['index', '--skip-validation'])
    expect(run.code, run.stderr).toBe(0)
    const after = (await readPointer(remoteLocation('output_storage', backend.spec('output'))))!.pointer
    expect(after.previous).toBe(before)
    expect(await comparableTables(await published(backend))).toEqual(local.tables)
  }, 120_000)
})
