/** Tables written from a RowSource (rows made when sliced): the bytes of the array, made a piece at a time. */
import { describe, expect, it } from 'vitest'
import { NLP_RELATIONSHIPS } from '../../src/model/relationships.js'
import type { RowOf } from '../../src/model/schema.js'
import { encodeParquet, encodeParquetReleasing } from '../../src/storage/parquet.js'
import { MemoryTableStore, ParquetTableStore, type RowSource } from '../../src/storage/table-store.js'
import { testdir } from '../support/testdir.js'

type Row = RowOf<typeof NLP_RELATIONSHIPS>
const row = (i: number): Row => ({
  source: `S${i % 7}`,
  target: `T${i}`,
  weight: i / 3,
  text_unit_ids: [`u${i % 5}`, `u${(i % 5) + 1}`],
  description: '',
})

/** A source of `count` rows that records the slices asked for. */
function recordingSource(count: number): { source: RowSource<Row>; asked: [number, number][] } {
  const asked: [number, number][] = []
  const source: RowSource<Row> = {
    length: count,
    slice(start = 0, end = count) {
      asked.push([start, end])
      return Array.from({ length: Math.min(end, count) - start }, (_, k) => row(start + k))
    },
  }
  return { source, asked }
}

describe('writing a RowSource', () => {
  it('asks for one piece at a time and writes the bytes of the whole array', async () => {
    const rows = Array.from({ length: 2500 }, (_, i) => row(i))
    const { source, asked } = recordingSource(rows.length)
    const bytes = await encodeParquetReleasing(NLP_RELATIONSHIPS, source, { piecesOf: 1000 })
    expect(asked).toEqual([
      [0, 1000],
      [1000, 2000],
      [2000, 3000],
    ])
    expect(Buffer.from(bytes).equals(Buffer.from(encodeParquet(NLP_RELATIONSHIPS, rows)))).toBe(true)
  })

  it('is what both stores write and read back', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => row(i))
    const parquet = new ParquetTableStore(await testdir({}))
    await parquet.write(NLP_RELATIONSHIPS, recordingSource(40).source)
    expect(await parquet.read(NLP_RELATIONSHIPS)).toEqual(rows)
    const memory = new MemoryTableStore()
    await memory.write(NLP_RELATIONSHIPS, recordingSource(40).source)
    expect(await memory.read(NLP_RELATIONSHIPS)).toEqual(rows)
  })
})
