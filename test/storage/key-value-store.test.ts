// Every KeyValueStore implementation passes the same contract (key-value-store.case.ts).
import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileKeyValueStore, MemoryKeyValueStore, NullKeyValueStore } from '../../src/storage/key-value-store.js'
import { testdir } from '../support/testdir.js'
import { keyValueStoreContract } from './key-value-store.case.js'

keyValueStoreContract('FileKeyValueStore', async () => new FileKeyValueStore(join(await testdir({}), 'cache')))
keyValueStoreContract('MemoryKeyValueStore', async () => new MemoryKeyValueStore())
keyValueStoreContract('NullKeyValueStore', async () => new NullKeyValueStore(), { keeps: false })

describe('FileKeyValueStore folders', () => {
  it('creates a missing folder on write, also when it was removed after earlier writes', async () => {
    const base = join(await testdir({}), 'cache')
    const store = new FileKeyValueStore(base).child('extract_graph')
    await store.set('a', '1')
    await rm(base, { recursive: true })
    await store.set('b', '2')
    expect(await store.keys()).toEqual(['b'])
    expect(await readdir(join(base, 'extract_graph'))).toEqual(['b'])
  })
})
