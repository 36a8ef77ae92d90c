/**
 * Tables read as columns (TableStore.read with ReadOptions.columns, readColumns): the same values as the
 * row read, from Parquet (shared instance and worker, over several batches), the JS reader and memory,
 * with a row filter across batch edges, nulls, a leading U+FEFF, and strings as codes.
 */
import { describe, expect, it } from 'vitest'
import { NLP_RELATIONSHIPS } from '../../src/model/relationships.js'
import { column, defineTable, nullableColumn, type RowOf } from '../../src/model/schema.js'
import { decodeParquetInBatches, encodeParquet } from '../../src/storage/parquet.js'
import { asWritten, ColumnCollector, columnOf, rowsOfColumns } from '../../src/storage/table-columns.js'
import { MemoryTableStore, ParquetTableStore, readColumns } from '../../src/storage/table-store.js'
import { testdir } from '../support/testdir.js'

type Row = RowOf<typeof NLP_RELATIONSHIPS>
const ids = Array.from({ length: 40 }, (_, i) => String(i).padStart(128, 'u'))
const row = (i: number): Row => ({
  source: `S${Math.floor(i / 9)}`,
  target: i % 11 === 0 ? '\uFEFFBOM' : `T${i % 97}`,
  weight: i / 7,
  text_unit_ids: i % 13 === 0 ? [] : [ids[i % 40]!, ids[(i * 7) % 40]!],
  description: i % 17 === 0 ? 'x' : '',
})
// 40,000 rows of two 128-character ids: several batches of the reader's 4 MB.
const ROWS = Array.from({ length: 40_000 }, (_, i) => row(i))

const NULLABLE = defineTable('nullable', [
  nullableColumn('name', 'string'),
  nullableColumn('count', 'int64'),
  column('score', 'double'),
] as const)

describe('reading a table as columns', () => {
  it('gives the row read values from Parquet, with strings as codes into one list of distinct values', async () => {
    const store = new ParquetTableStore(await testdir())
    await store.write(NLP_RELATIONSHIPS, ROWS)
    const table = await readColumns(store, NLP_RELATIONSHIPS)
    expect(table.length).toBe(ROWS.length)
    expect(rowsOfColumns(NLP_RELATIONSHIPS, table)).toEqual(await store.read(NLP_RELATIONSHIPS))
    // One code per distinct string, shared by source, target, the lists and the descriptions.
    expect(new Set(table.values).size).toBe(table.values.length)
    const source = columnOf(table, 'source', 'string')
    expect(table.values[source.codes[9]!]).toBe('S1')
    expect(source.codes[9]).toBe(source.codes[17])
    expect(columnOf(table, 'text_unit_ids', 'list<string>').offsets.length).toBe(ROWS.length + 1)
  })

  it('keeps only the rows a filter picks, across batch edges', async () => {
    const store = new ParquetTableStore(await testdir())
    await store.write(NLP_RELATIONSHIPS, ROWS)
    const keep = (i: number) => i % 3 === 0 || (i > 16_000 && i < 16_400)
    const table = await readColumns(store, NLP_RELATIONSHIPS, { rows: keep, count: 13_600 })
    expect(await readColumns(store, NLP_RELATIONSHIPS, { rows: keep })).toEqual(table)
    expect(rowsOfColumns(NLP_RELATIONSHIPS, table)).toEqual(ROWS.filter((_, i) => keep(i)))
    expect(rowsOfColumns(NLP_RELATIONSHIPS, table, 5, 7)).toEqual([ROWS[15], ROWS[18]])
  })

  it('reads the same on the worker, with batches of a few rows', async () => {
    const collector = new ColumnCollector(NLP_RELATIONSHIPS)
    const bytes = encodeParquet(NLP_RELATIONSHIPS, ROWS.slice(0, 3000))
    const rows = await decodeParquetInBatches(NLP_RELATIONSHIPS, bytes, 'relationships.parquet', {
      workerAbove: 0,
      columns: collector,
      rows: (i) => i !== 1500,
    })
    expect(rows).toEqual([])
    const expected = ROWS.slice(0, 3000).filter((_, i) => i !== 1500)
    expect(rowsOfColumns(NLP_RELATIONSHIPS, collector.finish())).toEqual(expected)
  })

  it('keeps nulls of strings and numbers, from Parquet (both readers) and memory', async () => {
    const rows = [
      { name: null, count: 3, score: 0.5 },
      { name: 'a', count: null, score: -1 },
      { name: 'a', count: 2 ** 40, score: 2 },
    ]
    const folder = await testdir()
    for (const store of [new ParquetTableStore(folder), new ParquetTableStore(folder, 'js'), new MemoryTableStore()]) {
      await store.write(NULLABLE, rows)
      const table = await readColumns(store, NULLABLE)
      expect(rowsOfColumns(NULLABLE, table)).toEqual(rows)
      expect(columnOf(table, 'count', 'int64').nulls).toEqual(new Uint8Array([0, 1, 0]))
      expect(columnOf(table, 'score', 'double').nulls).toBeUndefined()
    }
  })

  it('names the file and the column a table lacks, and refuses kinds it cannot code', async () => {
    const folder = await testdir()
    const store = new ParquetTableStore(folder)
    await store.write(NULLABLE, [{ name: 'a', count: 1, score: 1 }])
    const wider = defineTable('nullable', [...NULLABLE.columns, column('extra', 'string')] as const)
    await expect(readColumns(store, wider)).rejects.toThrow(/nullable\.parquet: missing column "extra"/)
    const lists = defineTable('nullable', [column('xs', 'list<double>')] as const)
    await expect(readColumns(store, lists)).rejects.toThrow(/xs \(list<double>\) cannot be read as codes/)
  })

  it('hands the writer rows made from columns as an array up to a row group, else as a source', () => {
    const source = (length: number) => ({ length, slice: () => Array.from({ length }, (_, i) => i) })
    expect(Array.isArray(asWritten(source(1024 * 1024)))).toBe(true)
    const big = source(1024 * 1024 + 1)
    expect(asWritten(big)).toBe(big)
  })
})
