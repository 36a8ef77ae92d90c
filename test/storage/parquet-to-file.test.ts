/**
 * A table of several row groups written by the Parquet worker straight into its file (writeParquetReleasing):
 * the bytes of the gathered write, atomically (no file and no temporary left when the write fails).
 */
import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TEXT_UNITS } from '../../src/model/text-units.js'
import type { RowOf } from '../../src/model/schema.js'
import { encodeParquetReleasing, writeParquetReleasing } from '../../src/storage/parquet.js'
import type { RowSource } from '../../src/storage/table-store.js'
import { testdir } from '../support/testdir.js'

type Row = RowOf<typeof TEXT_UNITS>
const row = (i: number): Row => ({
  id: `unit-${i}`.padEnd(64, 'x'),
  human_readable_id: i,
  text: `text ${i} `.repeat(1 + (i % 9)),
  n_tokens: i % 300,
  document_id: `doc-${i % 4}`,
  entity_ids: Array.from({ length: i % 5 }, (_, k) => `e${(i + k) % 97}`),
  relationship_ids: Array.from({ length: i % 3 }, (_, k) => `r${(i * 7 + k) % 1013}`),
  covariate_ids: [],
})

/** `count` rows made when sliced; the slice starting at `failAt` throws. */
function source(count: number, failAt?: number): RowSource<Row> {
  return {
    length: count,
    slice(start = 0, end = count) {
      if (start === failAt) throw new Error(`no rows from ${start}`)
      return Array.from({ length: Math.min(end, count) - start }, (_, k) => row(start + k))
    },
  }
}

describe('writeParquetReleasing', () => {
  it('writes the row groups on the worker into the file (made in a missing folder) as they come: the bytes of the gathered write', async () => {
    const path = join(await testdir(), 'nested', 'text_units.parquet')
    // Pieces of a row group each, as a table of several million rows has (the writer's rows per group lowered).
    const options = { piecesOf: 1200, rowGroupRows: 1200 }
    await writeParquetReleasing(TEXT_UNITS, source(5000), path, { ...options, windowOf: 4093 })
    const gathered = await encodeParquetReleasing(TEXT_UNITS, source(5000), options)
    expect(gathered.byteLength).not.toBe(
      (await encodeParquetReleasing(TEXT_UNITS, source(5000), { piecesOf: 1200 })).byteLength,
    )
    const written = await readFile(path)
    expect(written.byteLength).toBe(gathered.byteLength)
    expect(written.equals(Buffer.from(gathered))).toBe(true)
    expect(await readdir(join(path, '..'))).toEqual(['text_units.parquet'])
  })

  it('writes a table of one piece on the worker straight from its WebAssembly memory: the bytes of the shared instance', async () => {
    const path = join(await testdir(), 'text_units.parquet')
    await writeParquetReleasing(TEXT_UNITS, source(3000), path, { workerAbove: 0, windowOf: 4093 })
    const shared = await encodeParquetReleasing(TEXT_UNITS, source(3000))
    const written = await readFile(path)
    expect(written.byteLength).toBe(shared.byteLength)
    expect(written.equals(Buffer.from(shared))).toBe(true)
  })

  it('writes a table of one piece whole, as before', async () => {
    const path = join(await testdir(), 'text_units.parquet')
    await writeParquetReleasing(TEXT_UNITS, source(800), path, { piecesOf: 1200 })
    expect((await readFile(path)).equals(Buffer.from(await encodeParquetReleasing(TEXT_UNITS, source(800))))).toBe(true)
  })

  it('leaves neither the file nor a temporary one when a piece fails, and keeps the file there before', async () => {
    const dir = await testdir()
    const path = join(dir, 'text_units.parquet')
    await expect(writeParquetReleasing(TEXT_UNITS, source(5000, 2400), path, { piecesOf: 1200 })).rejects.toThrow(
      'no rows from 2400',
    )
    expect(await readdir(dir)).toEqual([])
    await writeParquetReleasing(TEXT_UNITS, source(3000), path, { piecesOf: 1200 })
    const before = await readFile(path)
    await expect(writeParquetReleasing(TEXT_UNITS, source(5000, 3600), path, { piecesOf: 1200 })).rejects.toThrow()
    expect(await readdir(dir)).toEqual(['text_units.parquet'])
    expect((await readFile(path)).equals(before)).toBe(true)
  })
})
