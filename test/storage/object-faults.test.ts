/**
 * Store faults (503, 500, 429, connection resets) injected by a proxy between the SDKs and real
 * servers: every operation completes with the right data, and each fault is counted.
 */
import { afterAll, describe, expect, it } from 'vitest'
import { AzureBlobStore } from '../../src/storage/object/azure-blob.js'
import { type ObjectStore, storageRetries } from '../../src/storage/object/object-store.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { type FaultProxy, startFaultProxy } from '../support/fault-proxy.js'
import { useObjectStoreServers } from '../support/object-stores.js'

/** Slow (GRAPHRAG_SLOW_TESTS=1): each file starts its own Azurite and s3rver. */
const SLOW = Boolean(process.env.GRAPHRAG_SLOW_TESTS)

const servers = useObjectStoreServers(SLOW)
const proxies: FaultProxy[] = []
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()))
})

async function throughProxy(name: string): Promise<{ store: ObjectStore; proxy: FaultProxy }> {
  const { azurite, s3 } = servers
  if (name === 'azurite') {
    const container = await azurite.container(`faults${Date.now()}`)
    const proxy = await startFaultProxy(`http://127.0.0.1:${azurite.port}`, {
      every: 3,
      faults: [503, 'reset', 500, 429],
    })
    proxies.push(proxy)
    const connectionString = azurite.connectionString.replace(`127.0.0.1:${azurite.port}`, `127.0.0.1:${proxy.port}`)
    return { store: new AzureBlobStore({ connectionString, containerName: container }), proxy }
  }
  const bucket = await s3.bucket(`faults${Date.now()}`)
  const proxy = await startFaultProxy(s3.endpoint, { every: 3, faults: [503, 'reset', 500, 429] })
  proxies.push(proxy)
  return { store: new S3Store({ bucket, endpointUrl: proxy.url }), proxy }
}

describe.skipIf(!SLOW).each(['azurite', 's3rver'])('%s behind a faulty link', (name) => {
  it('writes, reads and lists everything, retrying and counting each injected fault', async () => {
    const { store, proxy } = await throughProxy(name)
    const before = storageRetries()
    const keys = Array.from({ length: 12 }, (_, i) => `doc/${String(i).padStart(2, '0')}.txt`)
    for (const key of keys) await store.put(key, `text of ${key}`)
    for (const key of keys) expect(new TextDecoder().decode((await store.get(key))?.body)).toBe(`text of ${key}`)
    expect((await store.list('doc/')).map((o) => o.key)).toEqual(keys)
    expect(proxy.injected()).toBeGreaterThanOrEqual(8)
    expect(storageRetries() - before).toBe(proxy.injected())
  }, 60_000)
})
