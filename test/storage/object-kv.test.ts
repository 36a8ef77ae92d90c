/**
 * The model cache in object storage (Azurite and the S3 test server): each flush of a partition writes
 * one pack object, create-only; a partition's packs are all read when it is first used, so a miss costs
 * no request; entries of the one-object-per-key layout are still read.
 */
import { describe, expect, it } from 'vitest'
import { AzureBlobStore } from '../../src/storage/object/azure-blob.js'
import { keyValueStoreAt } from '../../src/storage/object/object-kv.js'
import { joinKey, type ObjectStore } from '../../src/storage/object/object-store.js'
import { registerRemote, remoteLocation, type StorageSettings } from '../../src/storage/object/remote.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'
import { keyValueStoreContract } from './key-value-store.case.js'
import { packedCacheCases } from './packed-kv.case.js'

const servers = useObjectStoreServers()
let made = 0

/** A new container or bucket registered as a cache folder: the folder, and the store under it. */
async function cacheIn(kind: 'blob' | 's3'): Promise<{ dir: string; objects: ObjectStore }> {
  const name = `kv${Date.now()}x${made++}`
  const spec: StorageSettings =
    kind === 'blob'
      ? {
          ...NO_REMOTE_KEYS,
          type: 'blob',
          base_dir: 'cache',
          connection_string: servers.azurite.connectionString,
          container_name: await servers.azurite.container(name),
        }
      : {
          ...NO_REMOTE_KEYS,
          type: 's3',
          base_dir: 'cache',
          bucket: await servers.s3.bucket(name),
          endpoint_url: servers.s3.endpoint,
        }
  const dir = `/nonexistent/mirror-${name}`
  registerRemote(dir, remoteLocation('cache.storage', spec))
  const objects =
    kind === 'blob'
      ? new AzureBlobStore({ connectionString: servers.azurite.connectionString, containerName: spec.container_name! })
      : new S3Store({ bucket: spec.bucket!, endpointUrl: servers.s3.endpoint })
  return { dir, objects }
}

describe.each(['blob', 's3'] as const)('the model cache in object storage (%s)', (kind) => {
  keyValueStoreContract(`packed cache (${kind})`, async () => keyValueStoreAt((await cacheIn(kind)).dir))

  packedCacheCases(async () => {
    const { dir, objects } = await cacheIn(kind)
    return {
      open: () => keyValueStoreAt(dir),
      legacy: async (partition, key, value) => {
        await objects.put(joinKey('cache', partition, key), value)
      },
    }
  })

  it('writes one object per flush, not per entry; a run sees what was there when it first read a partition', async () => {
    const { dir, objects } = await cacheIn(kind)
    const first = keyValueStoreAt(dir).child('extract_graph')
    const second = keyValueStoreAt(dir).child('extract_graph')
    for (let i = 0; i < 50; i++) await second.set(`early${i}`, `from the second machine ${i}`)
    await second.flush()
    expect((await objects.list('cache/extract_graph/')).map((o) => o.key)).toEqual([
      expect.stringMatching(/^cache\/extract_graph\/\.pack-[^/]+\.000000$/),
    ])
    // The first machine reads the partition now: it sees the early entries...
    expect(await first.get('early7')).toBe('from the second machine 7')
    // ... but not one written by another machine after that (it may ask the model again).
    await second.set('k', 'v1')
    await second.flush()
    expect(await first.get('k')).toBeUndefined()
    expect(await keyValueStoreAt(dir).child('extract_graph').get('k')).toBe('v1')
    expect(first.child('x')).toBe(first.child('x'))
  })
})
