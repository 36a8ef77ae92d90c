import { describe, expect, it, vi } from 'vitest'
import { AzureBlobStore } from '../../src/storage/object/azure-blob.js'
import { acquireObjectLock } from '../../src/storage/object/object-lock.js'
import type { ObjectStore } from '../../src/storage/object/object-store.js'
import { HEARTBEAT_MS } from '../../src/storage/run-lock.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import {
  lanceStorageOptions,
  registerLanceOptions,
  remoteLocation,
  type StorageSettings,
} from '../../src/storage/object/remote.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'
import { conditionalWritesContract } from './conditional-writes.case.js'

const servers = useObjectStoreServers()

const backends: [string, () => Promise<ObjectStore>][] = [
  [
    'azurite',
    async () =>
      new AzureBlobStore({
        connectionString: servers.azurite.connectionString,
        containerName: await servers.azurite.container(`c${Date.now()}`),
      }),
  ],
  // s3rver ignores If-None-Match / If-Match on PUT: the conditional cases run on Azurite below and on
  // moto (s3-conditional.test.ts).
  [
    's3rver',
    async () => new S3Store({ bucket: await servers.s3.bucket(`b${Date.now()}`), endpointUrl: servers.s3.endpoint }),
  ],
]

describe.each(backends)('%s object store', (_name, open) => {
  it('puts, gets, lists by prefix in key order and deletes', async () => {
    const store = await open()
    await store.put('a/b/2.txt', 'two')
    await store.put('a/b/1.txt', new Uint8Array([1, 2, 3]))
    await store.put('a/c.txt', 'c')
    expect(new TextDecoder().decode((await store.get('a/b/2.txt'))?.body)).toBe('two')
    expect([...((await store.get('a/b/1.txt'))?.body ?? [])]).toEqual([1, 2, 3])
    expect(await store.get('a/missing')).toBeUndefined()
    expect((await store.list('a/b/')).map((o) => o.key)).toEqual(['a/b/1.txt', 'a/b/2.txt'])
    await store.delete('a/b/1.txt')
    await store.delete('a/never-there')
    expect((await store.list('a/')).map((o) => o.key)).toEqual(['a/b/2.txt', 'a/c.txt'])
    await store.check('output_storage')
  })

  it('names the setting when the container or bucket does not exist', async () => {
    const store = await open()
    const missing =
      store instanceof AzureBlobStore
        ? new AzureBlobStore({ connectionString: servers.azurite.connectionString, containerName: 'nosuchcontainer' })
        : new S3Store({ bucket: 'nosuchbucket', endpointUrl: servers.s3.endpoint })
    await expect(missing.check('output_storage')).rejects.toThrow(/output_storage .*does not exist/)
  })

  it('names the setting when the credential is refused', async () => {
    const store = await open()
    const wrong =
      store instanceof AzureBlobStore
        ? new AzureBlobStore({
            connectionString: servers.azurite.connectionString.replace(
              /AccountKey=[^;]+/,
              `AccountKey=${Buffer.from('wrong key').toString('base64')}`,
            ),
            containerName: 'refused',
          })
        : (() => {
            process.env.AWS_ACCESS_KEY_ID = 'WRONG'
            return new S3Store({ bucket: store.location.split('/')[2] ?? '', endpointUrl: servers.s3.endpoint })
          })()
    try {
      await expect(wrong.check('input_storage')).rejects.toThrow(/input_storage .*access refused/)
    } finally {
      process.env.AWS_ACCESS_KEY_ID = servers.s3.env.AWS_ACCESS_KEY_ID
    }
  })
})

conditionalWritesContract(
  'Azurite',
  async () =>
    new AzureBlobStore({
      connectionString: servers.azurite.connectionString,
      containerName: await servers.azurite.container(`l${Date.now()}`),
    }),
  (store, baseDir) =>
    remoteLocation('output_storage', {
      ...NO_REMOTE_KEYS,
      type: 'blob',
      base_dir: baseDir,
      connection_string: servers.azurite.connectionString,
      container_name: store.location.slice('az://'.length),
    }),
)

describe('the store lock heartbeat (Azurite)', () => {
  it('says, naming the lock, when a refresh fails for another reason than a lost lock, and keeps the lock', async () => {
    const real = new AzureBlobStore({
      connectionString: servers.azurite.connectionString,
      containerName: await servers.azurite.container(`h${Date.now()}`),
    })
    let refusing = false
    const store: ObjectStore = {
      location: real.location,
      get: (key) => real.get(key),
      put: (key, body, condition) =>
        refusing ? Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:1')) : real.put(key, body, condition),
      delete: (key, ifMatch) => real.delete(key, ifMatch),
      list: (prefix) => real.list(prefix),
      check: (setting) => real.check(setting),
    }
    const warnings: string[] = []
    const onWarning = (warning: Error) => warnings.push(warning.message)
    process.on('warning', onWarning)
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] })
    try {
      const lock = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag index')
      refusing = true
      vi.advanceTimersByTime(HEARTBEAT_MS)
      await vi.waitFor(() => expect(warnings.length).toBeGreaterThan(0), { timeout: 5000 })
      expect(warnings[0]).toBe(
        `could not refresh the lock ${real.location}/idx/.generations/lock: connect ECONNREFUSED 127.0.0.1:1; trying again`,
      )
      refusing = false
      // Not lost: release removes it.
      await lock.release()
      expect(await real.get('idx/.generations/lock')).toBeUndefined()
    } finally {
      vi.useRealTimers()
      process.off('warning', onWarning)
    }
  })
})

// The reduced form of vector-store-object.test.ts (slow: its own servers and the query thread), so a
// regression of LanceDB on az:// or s3:// fails every run.
describe.each(['az', 's3'])('LanceDB at %s:// (reduced)', (scheme) => {
  it('writes a table, searches it and reads it back after reopening', async () => {
    const name =
      scheme === 'az'
        ? await servers.azurite.container(`lance${Date.now()}`)
        : await servers.s3.bucket(`lance${Date.now()}`)
    const spec: StorageSettings =
      scheme === 'az'
        ? {
            ...NO_REMOTE_KEYS,
            type: 'blob',
            base_dir: '',
            connection_string: servers.azurite.connectionString,
            container_name: name,
          }
        : { ...NO_REMOTE_KEYS, type: 's3', base_dir: '', bucket: name, endpoint_url: servers.s3.endpoint }
    const uri = `${scheme}://${name}/lancedb`
    registerLanceOptions(uri, lanceStorageOptions(spec))
    const store = await openVectorStore(uri)
    try {
      const rows = [
        { id: 'a', vector: [1, 0, 0] },
        { id: 'b', vector: [0, 1, 0] },
      ]
      await store.replaceTable('entity_description', rows, new Date('2026-01-01T00:00:00Z'))
      expect((await store.search('entity_description', [0.1, 0.9, 0], 1)).map((h) => h.id)).toEqual(['b'])
    } finally {
      store.close()
    }
    const again = await openVectorStore(uri)
    try {
      expect(await again.describe('entity_description')).toEqual({ rows: 2, dimension: 3 })
    } finally {
      again.close()
    }
  })
})
