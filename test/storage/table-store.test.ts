// Every TableStore implementation passes the same contract (table-store.case.ts).
import { join } from 'node:path'
import { StagedTableStore } from '../../src/index/run/staged-table-store.js'
import { MemoryTableStore, ParquetTableStore } from '../../src/storage/table-store.js'
import { testdir } from '../support/testdir.js'
import { tableStoreContract } from './table-store.case.js'

tableStoreContract('ParquetTableStore', async () => new ParquetTableStore(join(await testdir({}), 'output')))
tableStoreContract('ParquetTableStore (JavaScript reader)', async () => {
  return new ParquetTableStore(join(await testdir({}), 'output'), 'js')
})
tableStoreContract('MemoryTableStore', async () => new MemoryTableStore())
tableStoreContract('StagedTableStore', async () => {
  const dir = await testdir({})
  return new StagedTableStore(new ParquetTableStore(join(dir, 'output')), join(dir, 'output', '.staging', 'w'))
})
