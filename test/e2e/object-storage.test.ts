/**
 * An index in object storage, end to end through the CLI and the fake model server: inputs,
 * tables, vectors, cache and logs in Azurite (Azure Blob) and in s3rver (S3) give the same tables
 * as a local-folder index of the same inputs; every query method reads it; a second writer is
 * refused. (s3rver ignores conditional writes: the lock's create-only write and the pointer's
 * replace-if-unchanged write are proven against Azurite; on real S3 the same code sends
 * If-None-Match / If-Match, see docs/storage.md.)
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { readFile, writeFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { AzureBlobStore } from '../../src/storage/object/azure-blob.js'
import { pullGeneration, readPointer } from '../../src/storage/object/generations.js'
import type { ObjectStore } from '../../src/storage/object/object-store.js'
import { remoteLocation, type StorageSettings } from '../../src/storage/object/remote.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { runCli } from '../support/cli.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { startServer } from '../../src/server/start.js'
import { diagnose } from '../../src/server/diagnostics.js'
import { ModelProbe } from '../../src/server/model-probe.js'
import { formatDiagnostics } from '../../src/cli/diagnostics-format.js'
import { loadConfig } from '../../src/config/index.js'
import { runExport } from '../../src/export/index.js'
import { comparableTables, lanceRowCounts, spawnCli } from '../support/index-files.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'
import { testdir } from '../support/testdir.js'

/** The default suite runs the Azurite essentials; GRAPHRAG_SLOW_TESTS=1 adds s3rver, every method, serve replicas, update and the kill drill. */
const SLOW = Boolean(process.env.GRAPHRAG_SLOW_TESTS)

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
const servers = useObjectStoreServers()
let local: { tables: Record<string, string>; vectors: Record<string, number> }
let localUpdated: Record<string, string> = {}
const STORM = 'A storm hit Kettle Harbour; Ezra Pike and the Harbour Council repaired the Lighthouse.'
const HARBOUR_EDITED = 'Captain Olsen rang the Fog Bell at Kettle Harbour twice while Marta Quill counted the boats.'

beforeAll(async () => {
  llm = await startFakeLlm({ embeddingDimension: 8 })
  const root = await testdir({ 'settings.yaml': settingsYaml(''), ...inputs() })
  // The local-folder reference, in process: the object-store runs below are the CLI under test.
  await runIndex({ root, skipValidation: true })
  local = {
    tables: await comparableTables(join(root, 'output')),
    vectors: await lanceRowCounts(join(root, 'output', 'lancedb')),
  }
  if (SLOW) {
    // The update history of the slow tests, on a local folder: a document added, one edited, one deleted.
    await writeFile(join(root, 'input', 'storm.txt'), STORM)
    await writeFile(join(root, 'input', 'harbour.txt'), HARBOUR_EDITED)
    await rm(join(root, 'input', 'mill.txt'))
    const run = await runCli(['update', '--root', root, '--skip-validation'])
    expect(run.code, run.stderr).toBe(0)
    localUpdated = await comparableTables(join(root, 'output'))
  }
}, 300_000)

afterAll(async () => {
  await llm?.close()
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
  const { azurite } = servers
  const container = await azurite.container(`graphrag${Date.now()}`)
  const keys = `  connection_string: "${azurite.connectionString}"\n  container_name: ${container}\n`
  return {
    name: 'azurite',
    keys,
    env: {},
    store: new AzureBlobStore({ connectionString: azurite.connectionString, containerName: container }),
    spec: (base) => ({
      ...NO_REMOTE_KEYS,
      type: 'blob',
      base_dir: base,
      connection_string: azurite.connectionString,
      container_name: container,
    }),
  }
}

async function s3Backend(): Promise<Backend> {
  const { s3 } = servers
  const bucket = await s3.bucket(`graphrag${Date.now()}`)
  Object.assign(process.env, s3.env)
  return {
    name: 's3rver',
    keys: `  bucket: ${bucket}\n  endpoint_url: ${s3.endpoint}\n`,
    env: s3.env,
    store: new S3Store({ bucket, endpointUrl: s3.endpoint }),
    spec: (base) => ({ ...NO_REMOTE_KEYS, type: 's3', base_dir: base, bucket, endpoint_url: s3.endpoint }),
  }
}

/** The published generation, downloaded the way a reader does. */
async function publishedOf(backend: Backend): Promise<string> {
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
] as const)('an index in object storage (%s)', (name, backendOf) => {
  const essential = name === 'azurite' || SLOW
  let backend: Backend
  let root: string
  const cli = (args: string[]) => runCli([...args, '--root', root], { env: backend.env })

  beforeAll(async () => {
    if (!essential) return
    backend = await backendOf()
    for (const [name, text] of Object.entries(DOCS)) await backend.store.put(`input/${name}`, text)
    root = await testdir({ 'settings.yaml': settingsYaml(storageYaml(backend.keys)) })
  }, 60_000)

  it.runIf(essential)(
    'index reads inputs from the store and publishes tables and vectors equal to a local-folder index; logs and cache land in the store; a run that failed on one machine resumes on a fresh one from the work it saved in the store',
    async () => {
      // First a run whose embedding endpoint fails: it stops at the last workflow and publishes nothing.
      const failing = await startFakeLlm({ embeddingDimension: 8, faults: { rate: 1, kinds: ['500'] } })
      const yaml = (embeddingBase: string, cache: string) => {
        const storage = storageYaml(backend.keys).replace('base_dir: cache', `base_dir: ${cache}`)
        const [chat, embedding] = settingsYaml(storage).split('embedding_models:')
        return `${chat}embedding_models:${embedding!.replace(llm.baseUrl, embeddingBase)}`
      }
      const loc = remoteLocation('output_storage', backend.spec('output'))
      await writeFile(join(root, 'settings.yaml'), yaml(failing.baseUrl, 'cache'))
      try {
        const first = await cli(['index', '--skip-validation'])
        expect(first.code, first.stderr).not.toBe(0)
        expect(await readPointer(loc), 'a failed run publishes nothing').toBeUndefined()
        expect((await backend.store.list('output/.generations/.work/')).map((o) => o.key)).toContain(
          'output/.generations/.work/state.json',
        )
      } finally {
        await failing.close()
      }
      // Then a CI job on another machine: nothing local, a working embedding endpoint, an empty model cache
      // (what it skips, it skips because the saved work resumes, not thanks to cached replies).
      await rm(join(root, '.graphrag'), { recursive: true, force: true })
      await writeFile(join(root, 'settings.yaml'), yaml(llm.baseUrl, 'cache-of-another-job'))
      const chats = llm.requests.filter((r) => r.kind !== 'embedding').length
      const run = await cli(['index', '--skip-validation'])
      await writeFile(join(root, 'settings.yaml'), settingsYaml(storageYaml(backend.keys)))
      expect(run.code, run.stderr).toBe(0)
      expect(`${run.stdout}${run.stderr}`).toMatch(
        /Index complete in .*: (az|s3):\/\/graphrag\d+-[0-9a-f]{8}\/output\/\.generations\/\d{8}T\d{6}Z-[0-9a-f]{8}\n/,
      )
      expect(`${run.stdout}${run.stderr}`).not.toContain('.graphrag/remote')
      expect(run.stderr).toMatch(
        /resuming the unfinished run saved in (az|s3):\/\/graphrag\d+-[0-9a-f]{8}\/output\/\.generations\/\.work/,
      )
      expect(llm.requests.filter((r) => r.kind !== 'embedding').length, 'no model call repeated').toBe(chats)
      const dir = await publishedOf(backend)
      const stats = JSON.parse(await readFile(join(dir, 'stats.json'), 'utf8')) as {
        workflows: Record<string, { skipped?: boolean }>
      }
      expect(stats.workflows.extract_graph?.skipped).toBe(true)
      expect(stats.workflows.generate_text_embeddings?.skipped).not.toBe(true)
      expect(await comparableTables(dir)).toEqual(local.tables)
      expect(await lanceRowCounts(join(dir, 'lancedb'))).toEqual(local.vectors)
      const keys = (await backend.store.list('')).map((o) => o.key)
      expect(keys).toContain('logs/indexing-engine.log')
      expect(keys.some((k) => k.startsWith('cache/'))).toBe(true)
      expect(keys).toContain('output/.generations/current.json')
      expect(keys).not.toContain('output/.generations/lock')
      // The publish superseded the saved work.
      expect(keys.filter((k) => k.startsWith('output/.generations/.work/'))).toEqual([])
    },
    180_000,
  )

  it.each(SLOW ? ['local', 'global', 'drift', 'basic'] : name === 'azurite' ? ['basic'] : [])(
    'query --method %s answers from the published generation',
    async (method) => {
      const run = await cli(['query', '--method', method, 'Who rang the Fog Bell?'])
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout.trim().length).toBeGreaterThan(0)
    },
    60_000,
  )

  it.runIf(essential)(
    'diagnostics, serve and the end of a run name the store and the published generation, never the local mirror or a secret; export reads it and writes beside the settings',
    async () => {
      const { generation } = (await readPointer(remoteLocation('output_storage', backend.spec('output'))))!.pointer
      const container = backend.spec('output').container_name ?? backend.spec('output').bucket
      const where = `${name === 'azurite' ? 'az' : 's3'}://${container}/output/.generations/${generation}`
      // In process (the CLI prints exactly this report, as text or as JSON): two CLI starts cost more than the checks.
      const report = await diagnose(loadConfig({ root, env: { ...process.env, ...backend.env } }), new ModelProbe())
      const text = formatDiagnostics(report)
      expect(text).toContain(`index: ${where} (last run finished`)
      expect(text).toContain(`output_storage.base_dir: output/.generations/${generation}`)
      expect(report.index.dir).toBe(where)
      expect(report.index.object_storage).toMatchObject({
        location: where,
        base_dir: `output/.generations/${generation}`,
      })
      expect(Array.isArray(report.vector_tables) && report.vector_tables.length).toBeGreaterThan(0)
      const server = await startServer({ root, port: 0, env: { ...process.env, ...backend.env } })
      try {
        // The web UI's data comes from the published generation too.
        const ui = (await (await fetch(`${server.url}/ui/stats`)).json()) as { stats: unknown }
        expect(ui.stats).not.toBeNull()
      } finally {
        await server.close()
      }
      expect(server.remoteIndex).toMatch(new RegExp(`^${where.replace(/[.]/g, '\\.')} \\(published `))
      // export reads the published generation; by default it writes beside the settings, not into the local copy
      // of the generation (replaced when another one is published).
      const exported = await runExport({ format: 'json', root })
      expect(exported.files).toEqual([join(root, 'export', 'graph.json')])
      expect(exported.nodes).toBeGreaterThan(0)
      expect(JSON.parse(await readFile(exported.files[0]!, 'utf8'))).toBeTruthy()
      for (const out of [text, JSON.stringify(report), server.remoteIndex]) {
        expect(out).not.toContain('.graphrag/remote')
        expect(out).not.toMatch(/AccountKey|Eby8vdM02/)
      }
    },
    60_000,
  )

  it.runIf(essential)(
    'a second writer is refused while the lock is held, naming the holder',
    async () => {
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
        expect(run.stderr).toMatch(/\(lock file: (az|s3):\/\/graphrag\d+-[0-9a-f]{8}\/output\/\.generations\/lock\)/)
      } finally {
        await backend.store.delete('output/.generations/lock')
      }
    },
    60_000,
  )

  it.runIf(SLOW)(
    'a re-run with unchanged inputs publishes a new generation with the same tables, keeping the previous one',
    async () => {
      const before = (await readPointer(remoteLocation('output_storage', backend.spec('output'))))!.pointer.generation
      const run = await cli(['index', '--skip-validation'])
      expect(run.code, run.stderr).toBe(0)
      const after = (await readPointer(remoteLocation('output_storage', backend.spec('output'))))!.pointer
      expect(after.previous).toBe(before)
      expect(await comparableTables(await publishedOf(backend))).toEqual(local.tables)
    },
    120_000,
  )

  it.runIf(SLOW)(
    'two serve replicas answer the same; a newly published generation is picked up without a restart',
    async () => {
      const replicas = await Promise.all(
        [0, 1].map(async () => {
          const replicaRoot = await testdir({ 'settings.yaml': settingsYaml(storageYaml(backend.keys)) })
          return startServer({ root: replicaRoot, port: 0, env: { ...process.env, ...backend.env } })
        }),
      )
      try {
        const ask = async (url: string) => {
          const res = await fetch(`${url}/query`, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ question: 'Who rang the Fog Bell?', method: 'basic' }),
          })
          expect(res.status).toBe(200)
          return ((await res.json()) as { response: string }).response
        }
        const answers = await Promise.all(replicas.map((r) => ask(r.url)))
        expect(answers[0]!.length).toBeGreaterThan(0)
        expect(answers[1]).toBe(answers[0])
        const dirOf = async (url: string) =>
          ((await (await fetch(`${url}/diagnostics`)).json()) as { index: { dir: string } }).index.dir
        const before = (await readPointer(remoteLocation('output_storage', backend.spec('output'))))!.pointer.generation
        expect(await dirOf(replicas[0]!.url)).toMatch(new RegExp(`${before}$`))
        const run = await cli(['index', '--skip-validation'])
        expect(run.code, run.stderr).toBe(0)
        const after = (await readPointer(remoteLocation('output_storage', backend.spec('output'))))!.pointer.generation
        expect(after).not.toBe(before)
        await expect
          .poll(() => dirOf(replicas[1]!.url), { timeout: 15_000, interval: 500 })
          .toMatch(new RegExp(`${after}$`))
      } finally {
        await Promise.all(replicas.map((r) => r.close()))
      }
    },
    180_000,
  )

  it.runIf(SLOW)(
    'kill -9 at two points leaves the previous generation published and queryable; a re-run on a fresh machine equals an uninterrupted one',
    async () => {
      const pointerNow = async () =>
        (await readPointer(remoteLocation('output_storage', backend.spec('output'))))!.pointer
      const before = await pointerNow()
      await backend.store.put('input/storm.txt', STORM)
      await backend.store.put('input/harbour.txt', HARBOUR_EDITED)
      await backend.store.delete('input/mill.txt')
      for (const at of ['create_community_reports', 'generate_text_embeddings']) {
        const run = spawnCli(['index', '--root', root, '--skip-validation'], backend.env)
        await run.waitFor(new RegExp(`Starting workflow: ${at}`))
        run.child.kill('SIGKILL')
        expect((await run.exited).signal).toBe('SIGKILL')
        expect(await pointerNow(), `killed in ${at}`).toEqual(before)
        const query = await cli(['query', '--method', 'basic', 'Who rang the Fog Bell?'])
        expect(query.code, query.stderr).toBe(0)
      }
      // A CI job on another machine: no local mirror, the dead run's lock still in the store, its heartbeat
      // older than GRAPHRAG_LOCK_STALE_SECONDS (the shortest accepted, 60 s: the lock is aged rather than waited for).
      await rm(join(root, '.graphrag'), { recursive: true, force: true })
      const lock = await backend.store.get('output/.generations/lock')
      const aged = new Date(Date.now() - 61_000).toISOString()
      const dead = { ...JSON.parse(new TextDecoder().decode(lock!.body)), host: 'ci-runner-killed', heartbeat: aged }
      await backend.store.put('output/.generations/lock', JSON.stringify(dead))
      const update = await runCli(['update', '--root', root, '--skip-validation'], {
        env: { ...backend.env, GRAPHRAG_LOCK_STALE_SECONDS: '60' },
      })
      expect(update.code, update.stderr).toBe(0)
      expect(update.stderr).toMatch(
        /took over the store lock \S+\/output\/\.generations\/lock from PID \d+ on host ci-runner-killed \(.*\), which has not refreshed it for \d+ s/,
      )
      expect((await pointerNow()).generation).not.toBe(before.generation)
      // model_replies records which earlier replies the update reused: the killed runs' history differs from the local one.
      const { 'model_replies.parquet': _, ...tables } = await comparableTables(await publishedOf(backend))
      const { 'model_replies.parquet': __, ...expected } = localUpdated
      expect(tables).toEqual(expected)
    },
    300_000,
  )

  it.runIf(essential)(
    'a missing container or bucket is one clear error naming the setting, before any model call',
    async () => {
      const missing = backend.keys.replace(/(container_name|bucket): \S+/, '$1: nosuchplace')
      const other = await testdir({ 'settings.yaml': settingsYaml(storageYaml(missing)) })
      const calls = llm.requests.length
      const run = await runCli(['index', '--root', other], { env: backend.env })
      expect(run.code).toBe(1)
      expect(run.stderr).toMatch(
        /(input|output)_storage \((az|s3):\/\/nosuchplace\): the (container|bucket) does not exist/,
      )
      expect(run.stderr.split('\n').filter((l) => l.startsWith('graphrag:'))).toHaveLength(1)
      expect(llm.requests.length).toBe(calls)
    },
    60_000,
  )
})
