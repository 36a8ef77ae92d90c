// Every KeyValueStore implementation passes the same contract (key-value-store.case.ts).
import { join } from 'node:path'
import { FileKeyValueStore, MemoryKeyValueStore, NullKeyValueStore } from '../../src/storage/key-value-store.js'
import { testdir } from '../support/testdir.js'
import { keyValueStoreContract } from './key-value-store.case.js'

keyValueStoreContract('FileKeyValueStore', async () => new FileKeyValueStore(join(await testdir({}), 'cache')))
keyValueStoreContract('MemoryKeyValueStore', async () => new MemoryKeyValueStore())
keyValueStoreContract('NullKeyValueStore', async () => new NullKeyValueStore(), { keeps: false })
