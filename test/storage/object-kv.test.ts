/**
 * The model cache in object storage (Azurite): shared by machines, each entry written once; each
 * partition listed once when first read, so a miss costs no request.
 */
import { describe, expect, it } from 'vitest'
import { keyValueStoreAt } from '../../src/storage/object/object-kv.js'
import { registerRemote, remoteLocation } from '../../src/storage/object/remote.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'

const servers = useObjectStoreServers()

async function cacheDir(): Promise<string> {
  const container = await servers.azurite.container(`kv${Date.now()}`)
  const dir = `/nonexistent/mirror-${container}`
  registerRemote(
    dir,
    remoteLocation('cache.storage', {
      ...NO_REMOTE_KEYS,
      type: 'blob',
      base_dir: 'cache',
      connection_string: servers.azurite.connectionString,
      container_name: container,
    }),
  )
  return dir
}

describe('the model cache in object storage', () => {
  it('keeps the first reply of a key; a run sees what was there when it first read a partition, and what it wrote', async () => {
    const dir = await cacheDir()
    const first = keyValueStoreAt(dir).child('extract_graph')
    const second = keyValueStoreAt(dir).child('extract_graph')
    await second.set('early', 'from the second machine')
    // The first machine lists the partition now: it sees the early entry.
    expect(await first.get('early')).toBe('from the second machine')
    expect(await first.get('k')).toBeUndefined()
    // Written by another machine after the listing: a miss for this run (it may ask the model again)...
    await second.set('k', 'v1')
    expect(await first.get('k')).toBeUndefined()
    // ... and its own answer does not replace the first one written.
    await first.set('k', 'v2')
    expect(await first.get('k')).toBe('v1')
    expect(await keyValueStoreAt(dir).child('extract_graph').get('k')).toBe('v1')
    expect(await keyValueStoreAt(dir).child('extract_graph').keys()).toEqual(['early', 'k'])
    // Children are partitions of their own, the same one each time.
    expect(first.child('x')).toBe(first.child('x'))
    expect(await first.child('x').get('k')).toBeUndefined()
    await first.delete('k')
    expect(await first.get('k')).toBeUndefined()
  })
})
