import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as parquet from 'parquet-wasm/node'
import { describe, expect, it } from 'vitest'
import { DOCUMENTS, INPUT_DOCUMENTS, pickColumns, TEXT_UNITS } from '../../src/model/index.js'
import { StorageError } from '../../src/errors.js'
import {
  decodeParquet,
  decodeParquetInBatches,
  encodeParquet,
  encodeParquetReleasing,
} from '../../src/storage/parquet.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

/** Seeded text of `length` characters, words of a small vocabulary (compressible as prose is). */
function prose(length: number, seed: number): string {
  const words = ['the', 'river', 'lantern', 'Ébène', 'council', 'walked', 'über', 'night', '雪', 'quietly']
  let state = seed
  const parts: string[] = []
  let size = 0
  while (size < length) {
    state = (state * 1103515245 + 12345) % 2 ** 31
    const word = words[state % words.length] as string
    parts.push(word)
    size += word.length + 1
  }
  return parts.join(' ').slice(0, length)
}

function units(count: number, textLength: number) {
  return Array.from({ length: count }, (_, i) => ({
    id: `unit-${i}`,
    human_readable_id: i,
    text: prose(textLength, i),
    n_tokens: textLength / 4,
    document_id: `doc-${i % 3}`,
    entity_ids: i % 5 === 0 ? [] : [`e${i}`, `e${i + 1}`],
    relationship_ids: [`r${i}`],
    covariate_ids: i % 2 === 0 ? [] : [`c${i}`],
  }))
}

const document = (text: string) => ({
  id: 'doc-0',
  human_readable_id: 0,
  title: 'big.txt',
  text,
  text_unit_ids: ['unit-0', 'unit-1'],
  creation_date: '2026-01-01',
  raw_data: null,
})

describe('big tables on a worker thread', () => {
  it('writes the same bytes on a worker as on the shared instance, small tables and big alike', async () => {
    const cases = [
      [TEXT_UNITS, []],
      [TEXT_UNITS, units(3, 40)],
      [TEXT_UNITS, units(3000, 700)],
      [DOCUMENTS, [document(prose(1_000_000, 7)), { ...document('short'), id: 'doc-1', raw_data: null }]],
    ] as const
    for (const [schema, rows] of cases) {
      const shared = encodeParquet(schema, rows as never)
      const onWorker = await encodeParquetReleasing(schema, rows as never, { workerAbove: 0 })
      expect(Buffer.from(onWorker).equals(Buffer.from(shared))).toBe(true)
    }
  })

  it('writes a table handed over in pieces to the bytes of the whole (pieces below any page limit)', async () => {
    // 3,000 short rows make one page per column, so pieces of 1,000 rows change no page boundary.
    const rows = units(3000, 40)
    const shared = encodeParquet(TEXT_UNITS, rows)
    const inPieces = await encodeParquetReleasing(TEXT_UNITS, rows, { piecesOf: 1000 })
    expect(Buffer.from(inPieces).equals(Buffer.from(shared))).toBe(true)
    const read = await decodeParquetInBatches(TEXT_UNITS, inPieces, 'text_units.parquet')
    expect(read.map((row) => row.id)).toEqual(rows.map((row) => row.id))
  })

  it('reads on a worker batch by batch: every row, in order, only the declared columns', async () => {
    const dir = await testdir({})
    // 1,500 units of 3 KB: about 4.5 MB, so two batches (of ~4 MB at most) cross the thread.
    const rows = units(1500, 3000)
    const file = join(dir, 'text_units.parquet')
    await writeFile(file, encodeParquet(TEXT_UNITS, rows))
    const whole = decodeParquet(TEXT_UNITS, encodeParquet(TEXT_UNITS, rows), 'whole')
    const read = await decodeParquetInBatches(TEXT_UNITS, { path: file }, 'text_units.parquet', { workerAbove: 0 })
    expect(read).toEqual(whole)
    // A row filter counts rows across batches: every third row of the whole table, whichever batch holds it.
    const thirds = await decodeParquetInBatches(TEXT_UNITS, { path: file }, 'text_units.parquet', {
      workerAbove: 0,
      rows: (i) => i % 3 === 2,
    })
    expect(thirds).toEqual(whole.filter((_, i) => i % 3 === 2))
    const ids = pickColumns(TEXT_UNITS, ['id', 'document_id'])
    const picked = await decodeParquetInBatches(ids, { path: file }, 'text_units.parquet', { workerAbove: 0 })
    expect(picked).toEqual(rows.map((r) => ({ id: r.id, document_id: r.document_id })))
    // From bytes in memory (no file to open on the worker) the same.
    const fromBytes = await decodeParquetInBatches(ids, encodeParquet(TEXT_UNITS, rows), 'mem', { workerAbove: 0 })
    expect(fromBytes).toEqual(picked)
  })

  it('names the file when a table read on a worker lacks a required column or is not Parquet', async () => {
    const dir = await testdir({ 'bad.parquet': 'id,text\n1,a\n' })
    const file = join(dir, 'documents.parquet')
    await writeFile(file, encodeParquet(INPUT_DOCUMENTS, [document(prose(1000, 1))] as never))
    await expect(
      decodeParquetInBatches(TEXT_UNITS, { path: file }, 'documents.parquet', { workerAbove: 0 }),
    ).rejects.toThrow(/documents\.parquet: missing column "n_tokens" of table text_units/)
    await expect(
      decodeParquetInBatches(TEXT_UNITS, { path: join(dir, 'bad.parquet') }, 'bad.parquet', { workerAbove: 0 }),
    ).rejects.toThrow(StorageError)
  })

  it("leaves the shared instance's WebAssembly memory as it was, give or take a footer, after a table above the bound", () => {
    // In a process of its own (over dist/): test files share processes here, and one before this may
    // have grown the shared instance past what this table needs, hiding the difference.
    const script = `
      import { writeFileSync } from 'node:fs'
      import * as parquet from 'parquet-wasm/node'
      import { DOCUMENTS } from './dist/model/index.js'
      import { decodeParquetInBatches, encodeParquet, encodeParquetReleasing } from './dist/storage/parquet.js'
      const text = 'the river lantern walked quietly over the old bridge at night '.repeat(100000)
      const rows = [{ id: 'd', human_readable_id: 0, title: 't', text, text_unit_ids: [], creation_date: '', raw_data: null }]
      const size = () => parquet.wasmMemory().buffer.byteLength
      const before = size()
      const file = process.argv[1]
      writeFileSync(file, await encodeParquetReleasing(DOCUMENTS, rows, { workerAbove: 2 ** 20 }))
      const [read] = await decodeParquetInBatches(DOCUMENTS, { path: file }, 'documents.parquet', { workerAbove: 2 ** 20 })
      const onWorker = size() - before
      encodeParquet(DOCUMENTS, rows)
      console.log(JSON.stringify({ same: read.text === text, bytes: text.length, onWorker, shared: size() - before }))
    `
    const file = join(tmpdir(), `graphrag-parquet-worker-${process.pid}.parquet`)
    let out: string
    try {
      out = execFileSync(process.execPath, ['--input-type=module', '-e', script, file], {
        cwd: PROJECT_ROOT,
        encoding: 'utf8',
      })
    } finally {
      rmSync(file, { force: true })
    }
    const result = JSON.parse(out) as { same: boolean; bytes: number; onWorker: number; shared: number }
    expect(result.same).toBe(true)
    // Reading the footer on the shared instance may take a page or two of it, never the table.
    expect(result.onWorker).toBeLessThan(2 ** 20)
    // The shared instance itself grows by several times the text to write the same table.
    expect(result.shared).toBeGreaterThan(2 * result.bytes)
  })
})

describe.skipIf(!process.env.GRAPHRAG_SLOW_TESTS)('a table store with a 40 MB document (GRAPHRAG_SLOW_TESTS=1)', () => {
  it('writes and reads it on a worker at the default bound, leaving the shared instance small', async () => {
    const store = new ParquetTableStore(await testdir({}))
    const rows = [document(prose(40_000_000, 11))]
    const before = parquet.wasmMemory().buffer.byteLength
    await store.write(DOCUMENTS, rows)
    const [read] = await store.read(DOCUMENTS)
    expect(read?.text === rows[0]?.text).toBe(true)
    expect(parquet.wasmMemory().buffer.byteLength - before).toBeLessThan(4 * 2 ** 20)
  }, 120_000)
})
