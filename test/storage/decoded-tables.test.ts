/**
 * The run's decoded rows (src/storage/decoded-tables.ts): a table read again is copied from the rows
 * kept, not decoded; a rewritten file is decoded again; callers get their own rows and lists; the bound
 * drops the least recently used entry.
 */
import { writeFile, utimes, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { StagedTableStore } from '../../src/index/run/staged-table-store.js'
import {
  column,
  defineTable,
  nullableColumn,
  pickColumns,
  type RowOf,
  type TableSchema,
} from '../../src/model/schema.js'
import { DecodedTableCache } from '../../src/storage/decoded-tables.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { testdir } from '../support/testdir.js'

const THINGS = defineTable('things', [
  column('id', 'string'),
  nullableColumn('tags', 'list<string>'),
  column('weight', 'double'),
])
const IDS = pickColumns(THINGS, ['id'])

const rowsOf = (letter: string) => [
  { id: `${letter}1`, tags: [`${letter}x`, `${letter}y`], weight: 1 },
  { id: `${letter}2`, tags: [`${letter}z`], weight: 2 },
]

/** Rewrites the table in place (same inode, same size: only the letters differ) with the old modification time. */
async function rewriteInPlace(dir: string, letter: string, seconds: number): Promise<void> {
  const other = await testdir()
  await new ParquetTableStore(other).write(THINGS, rowsOf(letter))
  const file = join(dir, 'things.parquet')
  const bytes = await readFile(join(other, 'things.parquet'))
  expect(bytes.length).toBe((await readFile(file)).length)
  await writeFile(file, bytes)
  await utimes(file, seconds, seconds)
}

describe('decoded tables kept for the run', () => {
  it('serves a second read, and a read of fewer columns, from the rows kept (an in-place change of the same identity goes unseen)', async () => {
    const dir = await testdir()
    const store = new ParquetTableStore(dir, 'wasm', new DecodedTableCache())
    await store.write(THINGS, rowsOf('a'))
    await utimes(join(dir, 'things.parquet'), 1000, 1000)
    expect(await store.read(THINGS)).toEqual(rowsOf('a'))
    await rewriteInPlace(dir, 'b', 1000)
    // Same device, inode, size and time: the kept rows answer (a store without them sees the change).
    expect(await store.read(THINGS)).toEqual(rowsOf('a'))
    expect(await store.read(IDS)).toEqual([{ id: 'a1' }, { id: 'a2' }])
    expect(await new ParquetTableStore(dir).read(THINGS)).toEqual(rowsOf('b'))
  })

  it('decodes a file again once its modification time or inode changed', async () => {
    const dir = await testdir()
    const store = new ParquetTableStore(dir, 'wasm', new DecodedTableCache())
    await store.write(THINGS, rowsOf('a'))
    await utimes(join(dir, 'things.parquet'), 1000, 1000)
    await store.read(THINGS)
    await rewriteInPlace(dir, 'b', 2000)
    expect(await store.read(THINGS)).toEqual(rowsOf('b'))
    // A write renames a new file into place.
    await store.write(THINGS, rowsOf('c'))
    expect(await store.read(IDS)).toEqual([{ id: 'c1' }, { id: 'c2' }])
  })

  it('gives every read its own rows and lists', async () => {
    const dir = await testdir()
    const store = new ParquetTableStore(dir, 'wasm', new DecodedTableCache())
    await store.write(THINGS, rowsOf('a'))
    const first = await store.read(THINGS)
    first[0]!.tags!.push('changed')
    first[1]!.weight = 99
    expect(await store.read(THINGS)).toEqual(rowsOf('a'))
  })

  it('serves a committed staged table from the rows read while staged (a rename keeps the identity)', async () => {
    const dir = await testdir()
    const decoded = new DecodedTableCache()
    const target = new ParquetTableStore(dir, 'wasm', decoded)
    const staged = new StagedTableStore(target, join(dir, '.staging', 'w'))
    await staged.write(THINGS, rowsOf('a'))
    expect(await staged.read(THINGS)).toEqual(rowsOf('a'))
    const kept = decoded.bytes
    expect(kept).toBeGreaterThan(0)
    await staged.commit()
    // A decode would add an entry of the new identity.
    expect(await target.read(THINGS)).toEqual(rowsOf('a'))
    expect(await new ParquetTableStore(dir, 'wasm', decoded).read(IDS)).toEqual([{ id: 'a1' }, { id: 'a2' }])
    expect(decoded.bytes).toBe(kept)
    await utimes(join(dir, 'things.parquet'), 1000, 1000)
    await target.read(THINGS)
    expect(decoded.bytes).toBe(2 * kept)
  })
})

/** Counts the reads the kept rows answered. */
class CountingCache extends DecodedTableCache {
  hits = 0
  override get<S extends TableSchema>(identity: string, schema: S): RowOf<S>[] | undefined {
    const rows = super.get(identity, schema)
    if (rows !== undefined) this.hits++
    return rows
  }
}

describe('rows kept as written', () => {
  const MIXED = defineTable('mixed', [
    column('id', 'string'),
    nullableColumn('note', 'string'),
    column('count', 'int64'),
    nullableColumn('tags', 'list<string>'),
    column('ranks', 'list<int64>'),
    column('scores', 'list<double>'),
    column('weight', 'double'),
  ])
  // Values a read does not give back as written: absent values, fractions in int64 columns, -0.
  const written = [
    { id: 'a', note: undefined, count: 2.7, tags: undefined, ranks: [1.5, -0.2], scores: [0.25, -0], weight: -0 },
    { id: 'b', note: 'x', count: -3.5, tags: ['t', null], ranks: [], scores: [1e-300], weight: 0.1 + 0.2 },
  ] as unknown as RowOf<typeof MIXED>[]

  it('answers a table read after its write as a decode of the written file does, without decoding it', async () => {
    const dir = await testdir()
    const decoded = new CountingCache()
    const store = new ParquetTableStore(dir, 'wasm', decoded)
    await store.write(MIXED, written)
    expect(decoded.bytes).toBeGreaterThan(0)
    const fromFile = await new ParquetTableStore(dir).read(MIXED)
    const kept = await store.read(MIXED)
    expect(kept).toEqual(fromFile)
    expect(Object.is(kept[0]!.count, 2)).toBe(true)
    expect(Object.is(kept[0]!.ranks[1], 0)).toBe(true)
    expect(Object.is(kept[0]!.weight, -0)).toBe(true)
    expect(decoded.hits).toBe(1)
    expect(await store.read(pickColumns(MIXED, ['id', 'tags']))).toEqual([
      { id: 'a', tags: [] },
      { id: 'b', tags: ['t', null] },
    ])
    expect(decoded.hits).toBe(2)
  })

  it('keeps nothing when a value would not read back as written', async () => {
    const dir = await testdir()
    const decoded = new DecodedTableCache()
    const store = new ParquetTableStore(dir, 'wasm', decoded)
    // A lone surrogate is written as U+FFFD.
    await store.write(THINGS, [{ id: 'x\uD800', tags: ['y'], weight: 1 }])
    expect(decoded.bytes).toBe(0)
    expect(await store.read(THINGS)).toEqual([{ id: 'x\uFFFD', tags: ['y'], weight: 1 }])
    const cache = new DecodedTableCache()
    cache.setWritten('f', THINGS, [{ id: 5, tags: [], weight: 1 }] as never)
    cache.setWritten('g', THINGS, [{ id: 'a', tags: ['\uDC00'], weight: 1 }])
    cache.setWritten('h', THINGS, [{ id: 'a', tags: 'a', weight: 1 }] as never)
    cache.setWritten('i', THINGS, [{ id: 'a', tags: [], weight: '1' }] as never)
    expect(cache.bytes).toBe(0)
    cache.setWritten('j', THINGS, [{ id: 'a', tags: [], weight: 1 }])
    expect(cache.get('j', THINGS)).toEqual([{ id: 'a', tags: [], weight: 1 }])
  })

  it('makes no copy of written rows past the bound', () => {
    const small = new DecodedTableCache(100)
    small.setWritten('f', MIXED, written)
    expect(small.bytes).toBe(0)
    expect(small.get('f', MIXED)).toBeUndefined()
  })
})

describe('DecodedTableCache', () => {
  const rows = rowsOf('a')

  it('answers only the identity and the columns (kind and nullability included) it holds', () => {
    const cache = new DecodedTableCache()
    expect(cache.get('f', THINGS)).toBeUndefined()
    cache.set('f', IDS, [{ id: 'a1' }, { id: 'a2' }])
    expect(cache.get('f', IDS)).toEqual([{ id: 'a1' }, { id: 'a2' }])
    expect(cache.get('f', THINGS)).toBeUndefined()
    expect(cache.get('g', IDS)).toBeUndefined()
    const required = defineTable('things', [column('tags', 'list<string>')])
    cache.set('f', THINGS, rows)
    expect(cache.get('f', required)).toBeUndefined()
    const otherKind = defineTable('things', [column('weight', 'int64')])
    expect(cache.get('f', otherKind)).toBeUndefined()
  })

  it('holds a table once whatever the order of the reads, and drops the least recently used past the bound', () => {
    const cache = new DecodedTableCache()
    cache.set('f', IDS, [{ id: 'a1' }, { id: 'a2' }])
    const idsOnly = cache.bytes
    cache.set('f', THINGS, rows)
    const whole = cache.bytes
    // The ids' entry is covered by the whole table's, and dropped.
    const alone = new DecodedTableCache()
    alone.set('f', THINGS, rows)
    expect(whole).toBe(alone.bytes)
    expect(idsOnly).toBeGreaterThan(0)
    cache.set('f', IDS, [{ id: 'a1' }, { id: 'a2' }])
    expect(cache.bytes).toBe(whole)
    expect(cache.get('f', IDS)).toEqual([{ id: 'a1' }, { id: 'a2' }])
    const bounded = new DecodedTableCache(whole * 2)
    bounded.set('a', THINGS, rows)
    bounded.set('b', THINGS, rows)
    expect(bounded.get('a', THINGS)).toEqual(rows)
    bounded.set('c', THINGS, rows)
    expect(bounded.get('b', THINGS)).toBeUndefined()
    expect(bounded.get('a', THINGS)).toEqual(rows)
    expect(bounded.get('c', THINGS)).toEqual(rows)
    const tiny = new DecodedTableCache(whole - 1)
    tiny.set('a', THINGS, rows)
    expect(tiny.bytes).toBe(0)
  })

  it('keeps no table with object values (findings, json)', () => {
    const cache = new DecodedTableCache()
    const withJson = defineTable('docs', [column('id', 'string'), nullableColumn('raw_data', 'json')])
    cache.set('f', withJson, [{ id: 'd', raw_data: { a: 1 } }])
    expect(cache.bytes).toBe(0)
    expect(cache.get('f', withJson)).toBeUndefined()
  })
})
