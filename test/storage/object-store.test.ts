import { describe, expect, it } from 'vitest'
import { AzureBlobStore } from '../../src/storage/object/azure-blob.js'
import { publishPointer, readPointer } from '../../src/storage/object/generations.js'
import { acquireObjectLock } from '../../src/storage/object/object-lock.js'
import { remoteLocation } from '../../src/storage/object/remote.js'
import { RunLockedError } from '../../src/storage/run-lock.js'
import { ConditionFailedError, type ObjectStore } from '../../src/storage/object/object-store.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'

const servers = useObjectStoreServers()

const backends: [string, () => Promise<ObjectStore>, { conditional: boolean }][] = [
  [
    'azurite',
    async () =>
      new AzureBlobStore({
        connectionString: servers.azurite.connectionString,
        containerName: await servers.azurite.container(`c${Date.now()}`),
      }),
    { conditional: true },
  ],
  // s3rver ignores If-None-Match / If-Match on PUT: the conditional cases run against Azurite only.
  [
    's3rver',
    async () => new S3Store({ bucket: await servers.s3.bucket(`b${Date.now()}`), endpointUrl: servers.s3.endpoint }),
    { conditional: false },
  ],
]

describe.each(backends)('%s object store', (_name, open, caps) => {
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

  it.runIf(caps.conditional)('create-only and replace-if-unchanged writes refuse a second writer', async () => {
    const store = await open()
    const etag = await store.put('lock', 'first', { ifAbsent: true })
    await expect(store.put('lock', 'second', { ifAbsent: true })).rejects.toBeInstanceOf(ConditionFailedError)
    const next = await store.put('lock', 'third', { ifMatch: etag })
    await expect(store.put('lock', 'stale', { ifMatch: etag })).rejects.toBeInstanceOf(ConditionFailedError)
    await expect(store.delete('lock', etag)).rejects.toBeInstanceOf(ConditionFailedError)
    await store.delete('lock', next)
    expect(await store.get('lock')).toBeUndefined()
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

describe('lock and pointer on Azurite (conditional writes)', () => {
  const open = async () =>
    new AzureBlobStore({
      connectionString: servers.azurite.connectionString,
      containerName: await servers.azurite.container(`l${Date.now()}`),
    })

  it('refuses a second holder, takes over a lock left unrefreshed on another host, and can be taken again once released', async () => {
    const store = await open()
    const first = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag index')
    await expect(acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')).rejects.toBeInstanceOf(
      RunLockedError,
    )
    await first.release()
    const again = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag update')
    await again.release()
    const old = new Date(Date.now() - 10 * 60_000).toISOString()
    const gone = { pid: 4242, host: 'ci-runner-7', command: 'graphrag index', started: old, heartbeat: old, token: 't' }
    await store.put('idx/.generations/lock', JSON.stringify(gone))
    const taken = await acquireObjectLock(store, 'idx/.generations/lock', 'graphrag index')
    expect(taken.tookOverFrom).toMatchObject({ pid: 4242, host: 'ci-runner-7' })
    await taken.release()
    expect(await store.get('idx/.generations/lock')).toBeUndefined()
  })

  it('publishes a generation only over the pointer it started from', async () => {
    const store = await open()
    const container = store.location.slice('az://'.length)
    const loc = remoteLocation('output_storage', {
      ...NO_REMOTE_KEYS,
      type: 'blob',
      base_dir: 'idx',
      connection_string: servers.azurite.connectionString,
      container_name: container,
    })
    await publishPointer(loc, 'g1', null, undefined)
    await expect(publishPointer(loc, 'g0', null, undefined)).rejects.toThrow(/another run published the index/)
    const seen = (await readPointer(loc))!
    await publishPointer(loc, 'g2', 'g1', seen.etag)
    await expect(publishPointer(loc, 'g3', 'g1', seen.etag)).rejects.toThrow(/generation g3 was not published/)
    expect((await readPointer(loc))?.pointer).toMatchObject({ generation: 'g2', previous: 'g1' })
  })
})
