/**
 * The model cache in a local folder: entries batched into one append-only pack per writing process and
 * partition (src/storage/packed-kv.ts), torn tails ignored, old one-file-per-key entries still read.
 */
import { appendFile, mkdir, readdir, readFile, rm, stat, truncate, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileKeyValueStore } from '../../src/storage/key-value-store.js'
import { keyValueStoreAt } from '../../src/storage/object/object-kv.js'
import { testdir } from '../support/testdir.js'
import { keyValueStoreContract } from './key-value-store.case.js'
import { packedCacheCases } from './packed-kv.case.js'

keyValueStoreContract('packed cache in a folder', async () => keyValueStoreAt(join(await testdir({}), 'cache')))

describe('packed cache in a folder', () => {
  packedCacheCases(async () => {
    const dir = join(await testdir({}), 'cache')
    return {
      open: () => keyValueStoreAt(dir),
      legacy: (partition, key, value) => new FileKeyValueStore(dir).child(partition).set(key, value),
    }
  })

  it('writes one pack file per writer and partition, whatever the number of entries', async () => {
    const dir = join(await testdir({}), 'cache')
    const store = keyValueStoreAt(dir).child('text_embedding')
    for (let i = 0; i < 2500; i++) await store.set(`key${i}`, `{"vector":[${i}]}`)
    await store.flush()
    const files = await readdir(join(dir, 'text_embedding'))
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^\.pack-/)
    expect(await keyValueStoreAt(dir).child('text_embedding').get('key2499')).toBe('{"vector":[2499]}')
    expect(await keyValueStoreAt(dir).child('text_embedding').keys()).toHaveLength(2500)
  })

  it('writes a batch on its own once 1000 entries wait, and a smaller one within about a second', async () => {
    const dir = join(await testdir({}), 'cache')
    const store = keyValueStoreAt(dir).child('p')
    for (let i = 0; i < 1000; i++) await store.set(`key${i}`, 'v')
    expect(await keyValueStoreAt(dir).child('p').keys()).toHaveLength(1000)
    await store.set('late', 'v')
    expect(await keyValueStoreAt(dir).child('p').get('late')).toBeUndefined()
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(await keyValueStoreAt(dir).child('p').get('late')).toBe('v')
  })

  it('a torn last record (cut short, or failing its checksum) is ignored and the earlier entries survive', async () => {
    const dir = join(await testdir({}), 'cache')
    const store = keyValueStoreAt(dir).child('p')
    await store.set('first', 'one')
    await store.flush()
    const [pack] = await readdir(join(dir, 'p'))
    const file = join(dir, 'p', pack!)
    const sizeAfterFirst = (await stat(file)).size
    await store.set('second', 'two-two')
    await store.flush()
    const whole = await readFile(file)
    // One byte of the last value changed: the lengths still fit, only the checksum tells.
    const flipped = Buffer.from(whole)
    flipped[flipped.length - 1] = 'X'.charCodeAt(0)
    await writeFile(file, flipped)
    const afterFlip = keyValueStoreAt(dir).child('p')
    expect(await afterFlip.keys()).toEqual(['first'])
    expect(await afterFlip.get('second')).toBeUndefined()
    // Cut in the middle of the second record, as a kill mid-write leaves it.
    await writeFile(file, whole)
    await truncate(file, sizeAfterFirst + 6)
    const afterCut = keyValueStoreAt(dir).child('p')
    expect(await afterCut.get('first')).toBe('one')
    expect(await afterCut.keys()).toEqual(['first'])
    // The next writer appends to a pack of its own, so its entries are not hidden behind the torn one.
    await afterCut.set('third', '3')
    await afterCut.flush()
    expect(await keyValueStoreAt(dir).child('p').keys()).toEqual(['first', 'third'])
  })

  it('a last record whose lengths are garbage (beyond the end of the file) is torn, not a huge read', async () => {
    const dir = join(await testdir({}), 'cache')
    const store = keyValueStoreAt(dir).child('p')
    await store.set('first', 'one')
    await store.flush()
    const [pack] = await readdir(join(dir, 'p'))
    const header = Buffer.alloc(13)
    header.writeUInt32LE(0xfffffff0, 9)
    await appendFile(join(dir, 'p', pack!), Buffer.concat([header, Buffer.from('key')]))
    expect(await keyValueStoreAt(dir).child('p').keys()).toEqual(['first'])
  })

  it('a failed write reports its error on flush and keeps its entries, which the next flush writes to a new pack', async () => {
    const dir = join(await testdir({}), 'cache')
    const store = keyValueStoreAt(dir).child('p')
    await store.set('kept', 'reply paid for')
    await mkdir(dir)
    await writeFile(join(dir, 'p'), 'a file where the partition folder goes')
    await expect(store.flush()).rejects.toThrow(/cache[/\\]p/)
    expect(await store.get('kept')).toBe('reply paid for')
    await rm(join(dir, 'p'))
    await store.set('next', 'another')
    await store.flush()
    const reader = keyValueStoreAt(dir).child('p')
    expect(await reader.get('kept')).toBe('reply paid for')
    expect(await reader.keys()).toEqual(['kept', 'next'])
    expect((await readdir(join(dir, 'p')))[0]).toMatch(/^\.pack-.*~1$/)
  })

  it('keeps old-layout keys and packs apart from temporary files', async () => {
    const dir = join(await testdir({ 'cache/p/abc': 'old', 'cache/p/.abc.1.ff.tmp': 'partial' }), 'cache')
    expect(await keyValueStoreAt(dir).child('p').keys()).toEqual(['abc'])
  })
})
