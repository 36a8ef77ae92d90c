/**
 * Issue 47 items 6 and 10: every try of a store request has a timeout (GRAPHRAG_STORE_TIMEOUT_SECONDS),
 * an unanswered try is resent like a reset, a store that never answers fails the operation with a
 * message naming it, and every resend is counted exactly and reported as it happens. A proxy
 * between the SDK and Azurite or s3rver holds requests unanswered; the timeout is 1 s here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AzureBlobStore } from '../../src/storage/object/azure-blob.js'
import {
  type ObjectStore,
  onStorageRetry,
  type StorageRetry,
  storageRetries,
} from '../../src/storage/object/object-store.js'
import { S3Store } from '../../src/storage/object/s3.js'
import { storeTryTimeoutMs } from '../../src/storage/object/transient.js'
import { type Fault, type FaultProxy, startFaultProxy } from '../support/fault-proxy.js'
import { useObjectStoreServers } from '../support/object-stores.js'

const servers = useObjectStoreServers()
const proxies: FaultProxy[] = []
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()))
})

// For the whole file (not per test): the two never-answering stores are waited on at once below.
let saved: string | undefined
beforeAll(() => {
  saved = process.env.GRAPHRAG_STORE_TIMEOUT_SECONDS
  process.env.GRAPHRAG_STORE_TIMEOUT_SECONDS = '1'
})
afterAll(() => {
  if (saved === undefined) delete process.env.GRAPHRAG_STORE_TIMEOUT_SECONDS
  else process.env.GRAPHRAG_STORE_TIMEOUT_SECONDS = saved
})

async function throughProxy(
  name: string,
  options: { every: number; faults: Fault[] },
): Promise<{ store: ObjectStore; proxy: FaultProxy; location: string }> {
  const { azurite, s3 } = servers
  if (name === 'azurite') {
    const container = await azurite.container(`stall${Date.now()}`)
    const proxy = await startFaultProxy(`http://127.0.0.1:${azurite.port}`, options)
    proxies.push(proxy)
    const connectionString = azurite.connectionString.replace(`127.0.0.1:${azurite.port}`, `127.0.0.1:${proxy.port}`)
    return {
      store: new AzureBlobStore({ connectionString, containerName: container }),
      proxy,
      location: `az://${container}`,
    }
  }
  const bucket = await s3.bucket(`stall${Date.now()}`)
  const proxy = await startFaultProxy(s3.endpoint, options)
  proxies.push(proxy)
  return { store: new S3Store({ bucket, endpointUrl: proxy.url }), proxy, location: `s3://${bucket}` }
}

describe.each(['azurite', 's3rver'])('%s: requests that go unanswered', (name) => {
  it('a try held unanswered is resent after the timeout; every resend is counted once and reported with its reason', async () => {
    const { store, proxy, location } = await throughProxy(name, { every: 3, faults: ['stall', 503, 'reset'] })
    const seen: StorageRetry[] = []
    const stop = onStorageRetry((retry) => seen.push(retry))
    const before = storageRetries()
    try {
      const keys = ['a', 'b', 'c', 'd'].map((k) => `doc/${k}.txt`)
      for (const key of keys) await store.put(key, `text of ${key}`)
      for (const key of keys) expect(new TextDecoder().decode((await store.get(key))?.body)).toBe(`text of ${key}`)
      expect((await store.list('doc/')).map((o) => o.key)).toEqual(keys)
    } finally {
      stop()
    }
    expect(proxy.injected()).toBeGreaterThanOrEqual(3)
    expect(storageRetries() - before).toBe(proxy.injected())
    expect(seen).toHaveLength(proxy.injected())
    expect(seen.every((r) => r.store === location && r.attempt >= 2 && /^(GET|PUT) \//.test(r.request))).toBe(true)
    const reasons = new Set(seen.map((r) => r.reason))
    expect(reasons.has('HTTP 503')).toBe(true)
    expect([...reasons].some((r) => /ETIMEDOUT|no answer/.test(r))).toBe(true)
  }, 60_000)
})

/**
 * Each store's six unanswered tries only wait on timers (~7 s on s3rver, ~11 s on Azurite), so both
 * stores are waited on at once. After the tests above: these resends would otherwise reach their
 * counters and listeners.
 */
describe('requests that go unanswered, both stores at once', () => {
  it.concurrent.for(['azurite', 's3rver'])(
    '%s: a store that never answers fails the request, naming the setting and the store, in bounded time',
    { timeout: 60_000 },
    async (name, { expect }) => {
      const { store, location } = await throughProxy(name, { every: 1, faults: ['stall'] })
      const started = performance.now()
      const error = await store.check('output_storage').then(
        () => undefined,
        (e: unknown) => e as Error,
      )
      expect(error?.message).toMatch(
        new RegExp(
          `^output_storage \\(${location}\\): the store did not answer when trying to list \\(6 tries, each given 1 s, GRAPHRAG_STORE_TIMEOUT_SECONDS\\)`,
        ),
      )
      expect(performance.now() - started).toBeLessThan(30_000)
    },
  )
})

describe('GRAPHRAG_STORE_TIMEOUT_SECONDS', () => {
  it('defaults to 60 s and refuses a value that is not a number of seconds ≥ 1, naming the variable', () => {
    expect(storeTryTimeoutMs({})).toBe(60_000)
    expect(storeTryTimeoutMs({ GRAPHRAG_STORE_TIMEOUT_SECONDS: '2.5' })).toBe(2_500)
    for (const bad of ['0.5', 'soon', '-3'])
      expect(() => storeTryTimeoutMs({ GRAPHRAG_STORE_TIMEOUT_SECONDS: bad })).toThrow(
        new RegExp(`^GRAPHRAG_STORE_TIMEOUT_SECONDS=${bad}: .*a number ≥ 1`),
      )
  })
})
