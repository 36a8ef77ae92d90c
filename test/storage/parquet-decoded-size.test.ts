/**
 * Reading a table whose footer understates its decoded size: a dictionary-encoded list of long ids
 * (the text-unit ids of millions of noun-graph relationships) takes a few bits a value in the file and
 * 128 bytes a value once decoded. The reader decodes a few rows to see, so such a table is read on a
 * worker (the shared instance's WebAssembly memory, which never shrinks, stays as it was) and in
 * batches of a few megabytes of decoded rows.
 */
import { execFileSync } from 'node:child_process'
import { rmSync } from 'node:fs'
import { writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as parquet from 'parquet-wasm/node'
import { describe, expect, it } from 'vitest'
import { NLP_RELATIONSHIPS } from '../../src/model/relationships.js'
import { decodeParquetInBatches, encodeParquet } from '../../src/storage/parquet.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

/** Runs `script` (an ES module over dist/) in a process of its own with a scratch file path; its JSON output. */
function runAlone(script: string): Record<string, number | boolean> {
  const file = join(tmpdir(), `graphrag-decoded-size-${process.pid}.parquet`)
  try {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script, file], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    })
    return JSON.parse(out) as Record<string, number | boolean>
  } finally {
    rmSync(file, { force: true })
  }
}

// 60,000 relationships listing 3 of 300 ids of 128 characters: ~23 MB decoded, well under 1 MB in the footer.
const TABLE = `
  import { writeFileSync } from 'node:fs'
  import * as parquet from 'parquet-wasm/node'
  import { NLP_RELATIONSHIPS } from './dist/model/relationships.js'
  import { decodeParquetInBatches, encodeParquetReleasing } from './dist/storage/parquet.js'
  const ids = Array.from({ length: 300 }, (_, i) => String(i).padStart(128, 'u'))
  const rows = Array.from({ length: 60000 }, (_, i) => ({
    source: 'phrase ' + (i % 700), target: 'phrase ' + (i % 997), weight: i % 7,
    text_unit_ids: [ids[i % 300], ids[(i * 7) % 300], ids[(i * 13) % 300]], description: '',
  }))
  const size = () => parquet.wasmMemory().buffer.byteLength
  const file = process.argv[1]
  writeFileSync(file, await encodeParquetReleasing(NLP_RELATIONSHIPS, rows, { workerAbove: 0 }))
  const before = size()
`

describe('a table whose footer understates its decoded size', () => {
  it('is read on a worker when its decoded rows pass the bound, leaving the shared instance as it was', () => {
    const result = runAlone(`${TABLE}
      const read = await decodeParquetInBatches(NLP_RELATIONSHIPS, { path: file }, 'r.parquet', { workerAbove: 8 * 2 ** 20 })
      const same = read.length === rows.length && read.every((row, i) => row.text_unit_ids[2] === rows[i].text_unit_ids[2])
      console.log(JSON.stringify({ same, grown: size() - before }))
    `)
    expect(result.same).toBe(true)
    // The probe of 1,024 rows and the footer: a few pages of the shared instance, never the ~23 MB table.
    expect(result.grown).toBeLessThan(4 * 2 ** 20)
  }, 60_000)

  it('is read in batches of a few megabytes of decoded rows when it stays on the shared instance', () => {
    const result = runAlone(`${TABLE}
      const read = await decodeParquetInBatches(NLP_RELATIONSHIPS, { path: file }, 'r.parquet', { workerAbove: 2 ** 40 })
      console.log(JSON.stringify({ same: read.length === rows.length, grown: size() - before }))
    `)
    expect(result.same).toBe(true)
    // The whole table in one batch (and its IPC copy) takes over 46 MB.
    expect(result.grown).toBeLessThan(24 * 2 ** 20)
  }, 60_000)
})

describe('a table of several row groups read batch by batch', () => {
  it('gives every row once, in order, on the shared instance and on a worker', async () => {
    const ids = Array.from({ length: 50 }, (_, i) => `unit-${i}`.padEnd(128, '.'))
    // ~11 MB decoded: three batches of about 4 MB.
    const rows = Array.from({ length: 20_000 }, (_, i) => ({
      source: `phrase ${i}`,
      target: `phrase ${i + 1}`,
      weight: i / 4,
      text_unit_ids: [ids[i % 50]!, ids[(i * 3) % 50]!, ids[(i * 7) % 50]!, ids[(i * 11) % 50]!],
      description: '',
    }))
    // Row groups of 7,000 rows (the writer's own are a million): batches start and end inside them.
    const props = new parquet.WriterPropertiesBuilder().setMaxRowGroupSize(7000).build()
    const bytes = parquet.writeParquet(parquet.readParquet(encodeParquet(NLP_RELATIONSHIPS, rows)), props)
    const dir = await testdir({})
    const file = join(dir, 'relationships.parquet')
    await writeFile(file, bytes)
    for (const workerAbove of [0, 2 ** 40]) {
      const read = await decodeParquetInBatches(NLP_RELATIONSHIPS, { path: file }, 'r.parquet', { workerAbove })
      expect(read).toEqual(rows)
    }
  }, 60_000)
})
