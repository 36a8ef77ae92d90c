/**
 * LanceDB on object storage through its own object-store support: `az://` against Azurite and
 * `s3://` against s3rver, with the options derived from output_storage's keys. (s3rver lists
 * "folders" differently from S3, so its table names are not checked; see docs/storage.md.)
 */
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import type * as RemoteModule from '../../src/storage/object/remote.js'
import { lanceStorageOptions, registerLanceOptions, type StorageSettings } from '../../src/storage/object/remote.js'
import type * as VectorThreadModule from '../../src/storage/vector-thread.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { NO_REMOTE_KEYS, useObjectStoreServers } from '../support/object-stores.js'
import { PROJECT_ROOT } from '../support/shared.js'

/** Slow (GRAPHRAG_SLOW_TESTS=1): each file starts its own Azurite and s3rver. */
const SLOW = Boolean(process.env.GRAPHRAG_SLOW_TESTS)

const servers = useObjectStoreServers(SLOW)

describe.skipIf(!SLOW).each(['az', 's3'])('LanceDB at %s://', (scheme) => {
  it('writes a table, reads it back and searches it', async () => {
    const { azurite, s3 } = servers
    let name: string
    let spec: StorageSettings
    if (scheme === 'az') {
      name = await azurite.container(`vectors${Date.now()}`)
      spec = {
        ...NO_REMOTE_KEYS,
        type: 'blob',
        base_dir: '',
        connection_string: azurite.connectionString,
        container_name: name,
      }
    } else {
      name = await s3.bucket(`vectors${Date.now()}`)
      spec = { ...NO_REMOTE_KEYS, type: 's3', base_dir: '', bucket: name, endpoint_url: s3.endpoint }
    }
    const uri = `${scheme}://${name}/lancedb`
    registerLanceOptions(uri, lanceStorageOptions(spec))
    const store = await openVectorStore(uri)
    try {
      await store.replaceTable(
        'entity_description',
        [
          { id: 'a', vector: [1, 0, 0] },
          { id: 'b', vector: [0, 1, 0] },
        ],
        new Date('2026-01-01T00:00:00Z'),
      )
      // s3rver answers LanceDB's delimiter listing without common prefixes, so table names come back empty there (S3 lists them).
      if (scheme === 'az') expect(await store.tableNames()).toEqual(['entity_description'])
      expect((await store.search('entity_description', [0.9, 0.1, 0], 1)).map((h) => h.id)).toEqual(['a'])
    } finally {
      store.close()
    }
    const again = await openVectorStore(uri)
    expect(await again.describe('entity_description')).toEqual({ rows: 2, dimension: 3 })
    again.close()

    // `graphrag query` searches on a thread of its own (built code): the connection options the
    // settings registered in the process travel with each call, since the thread has no registry.
    const built = (file: string) => pathToFileURL(join(PROJECT_ROOT, 'dist', 'storage', file)).href
    const remote = (await import(built('object/remote.js'))) as typeof RemoteModule
    remote.registerLanceOptions(uri, remote.lanceStorageOptions(spec))
    const { startVectorThread } = (await import(built('vector-thread.js'))) as typeof VectorThreadModule
    const thread = startVectorThread()
    try {
      const onThread = await thread.open(uri)
      expect((await onThread.search('entity_description', [0.1, 0.9, 0], 1)).map((h) => h.id)).toEqual(['b'])
    } finally {
      await thread.close()
    }
  }, 60_000)
})
