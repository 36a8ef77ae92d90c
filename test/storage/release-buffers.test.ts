import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { buildVector } from '../../src/storage/arrow-columns.js'
import { columnBuffers, releaseNow } from '../../src/storage/release-buffers.js'
import { PROJECT_ROOT } from '../support/shared.js'

const ID = 'u'.repeat(128)

describe('releaseNow', () => {
  it('detaches buffers of a megabyte or more and leaves smaller ones to the collector', () => {
    const big = new Uint8Array(2 ** 20).fill(7)
    const small = new Uint8Array(1000).fill(7)
    releaseNow([big.buffer, small.buffer])
    expect(big.byteLength).toBe(0)
    expect(small.byteLength).toBe(1000)
    expect(small[999]).toBe(7)
  })
})

describe('columnBuffers', () => {
  it("lists a list-of-strings column's offsets, item offsets and item bytes, but not the one kept", () => {
    const column = buildVector('list<string>', [[ID, ID], null, [ID]])
    const list = column.data[0]!
    const items = list.children[0]!
    const found = columnBuffers([column], items.values.buffer)
    expect(found.has(list.valueOffsets.buffer as ArrayBuffer)).toBe(true)
    expect(found.has(items.valueOffsets.buffer as ArrayBuffer)).toBe(true)
    expect(found.has(list.nullBitmap!.buffer as ArrayBuffer)).toBe(true)
    expect(found.has(items.values.buffer as ArrayBuffer)).toBe(false)
  })
})

describe('writing a table of several pieces', () => {
  it('leaves no Arrow columns behind on the main thread, without a garbage collection', () => {
    // In a process of its own (over dist/), so what is counted is this write's. 300,000 relationships of
    // four 128-character ids: ~170 MB of Arrow columns over three pieces; the IPC streams go to the worker.
    // A null id in each piece takes it through Arrow vectors (arrow-stream.ts writes only lists of strings).
    const script = `
      import { NLP_RELATIONSHIPS } from './dist/model/relationships.js'
      import { encodeParquetReleasing } from './dist/storage/parquet.js'
      const ids = Array.from({ length: 300 }, (_, i) => String(i).padStart(128, 'u'))
      const rows = Array.from({ length: 300000 }, (_, i) => ({
        source: 'phrase ' + (i % 700), target: 'phrase ' + (i % 997), weight: i % 7, description: '',
        text_unit_ids: [ids[i % 300], ids[(i * 7) % 300], ids[(i * 13) % 300], i % 100000 === 0 ? null : ids[(i * 17) % 300]],
      }))
      const bytes = await encodeParquetReleasing(NLP_RELATIONSHIPS, rows, { piecesOf: 100000 })
      await new Promise((tick) => setTimeout(tick, 50))
      console.log(JSON.stringify({ written: bytes.byteLength, left: process.memoryUsage().arrayBuffers }))
    `
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      cwd: PROJECT_ROOT,
      encoding: 'utf8',
    })
    const result = JSON.parse(out) as { written: number; left: number }
    expect(result.written).toBeGreaterThan(0)
    // The file (a few MB) and small buffers; one piece's columns alone would be ~57 MB.
    expect(result.left).toBeLessThan(32 * 2 ** 20)
  }, 120_000)
})
