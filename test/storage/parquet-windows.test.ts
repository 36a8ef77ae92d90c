/**
 * A table written on a worker goes over as Arrow IPC streams a window at a time, each window copied
 * straight into the worker's WebAssembly memory (issue 42: a row group's stream, 184 MB for a noun
 * graph's relationships, was held whole in JavaScript memory beside the worker's copy). The file must
 * be the one the whole stream gives on the shared instance, byte for byte, whatever the window size.
 */
import { describe, expect, it } from 'vitest'
import { DOCUMENTS } from '../../src/model/index.js'
import { NLP_RELATIONSHIPS } from '../../src/model/relationships.js'
import { type ArrowStreamPlan, arrowStreamPlan } from '../../src/storage/arrow-stream.js'
import { decodeParquetInBatches, encodeParquet, encodeParquetReleasing } from '../../src/storage/parquet.js'
import { encodeBatchesOnWorker } from '../../src/storage/parquet-worker.js'

const ID = (i: number) => `${i}`.padStart(128, 'f')

/** Noun-graph rows with text-unit ids of v3's length, multi-byte names and an empty list now and then. */
function relationships(count: number) {
  return Array.from({ length: count }, (_, i) => ({
    source: `PHRASE ${i % 97} é雪`,
    target: `PHRASE ${(i * 7) % 89}`,
    weight: i / 7,
    text_unit_ids: Array.from({ length: i % 4 }, (_, k) => ID((i + k) % 300)),
    description: '',
  }))
}

const same = (a: Uint8Array, b: Uint8Array) => Buffer.from(a).equals(Buffer.from(b))

describe('a table handed to the Parquet worker a window at a time', () => {
  it('is written to the bytes of the whole stream on the shared instance, for any window size', async () => {
    const rows = relationships(5000)
    const whole = encodeParquet(NLP_RELATIONSHIPS, rows)
    for (const windowOf of [4093, 65_536, 8 * 2 ** 20]) {
      // One stream (writeParquet on the worker), and three (transformParquetStream; 5,000 rows stay below
      // every page limit, so pieces cut no page differently).
      const one = await encodeParquetReleasing(NLP_RELATIONSHIPS, rows, { workerAbove: 0, windowOf })
      const pieces = await encodeParquetReleasing(NLP_RELATIONSHIPS, rows, { piecesOf: 2000, windowOf })
      expect(same(one, whole), `one stream, windows of ${windowOf}`).toBe(true)
      expect(same(pieces, whole), `pieces, windows of ${windowOf}`).toBe(true)
    }
    const read = await decodeParquetInBatches(NLP_RELATIONSHIPS, whole, 'relationships.parquet')
    expect(read[4999]).toEqual(rows[4999])
  })

  it('takes tables left to the vector builders (a struct column) the same way', async () => {
    const rows = Array.from({ length: 40 }, (_, i) => ({
      id: `doc-${i}`,
      human_readable_id: i,
      title: `t${i}.txt`,
      text: 'word '.repeat(200 + i),
      text_unit_ids: [`u${i}`],
      creation_date: '2026-01-01',
      raw_data: i % 2 === 0 ? null : { author: `a${i}`, pages: i },
    }))
    const whole = encodeParquet(DOCUMENTS, rows)
    const windowed = await encodeParquetReleasing(DOCUMENTS, rows, { workerAbove: 0, windowOf: 1000 })
    expect(same(windowed, whole)).toBe(true)
  })

  it('makes each window only once the worker has the one before, and each stream after the last', async () => {
    const rows = relationships(3000)
    const events: string[] = []
    const live: Uint8Array[] = []
    function* plans(): Generator<ArrowStreamPlan> {
      for (let piece = 0; piece < 3; piece++) {
        // Every window made so far has been handed over (detached) before the next stream is laid out.
        events.push(`stream ${piece} (windows still held: ${live.filter((w) => w.byteLength > 0).length})`)
        const plan = arrowStreamPlan(NLP_RELATIONSHIPS, rows.slice(piece * 1000, piece * 1000 + 1000))!
        yield {
          byteLength: plan.byteLength,
          *windows(size) {
            for (const window of plan.windows(size)) {
              const held = live.filter((w) => w.byteLength > 0).length
              if (held > 0) events.push(`window made while ${held} held`)
              live.push(window)
              yield window
            }
          },
        }
      }
    }
    const bytes = await encodeBatchesOnWorker(plans(), 10_000)
    expect(events).toEqual([0, 1, 2].map((piece) => `stream ${piece} (windows still held: 0)`))
    expect(live.length).toBeGreaterThan(3 * 10)
    expect(same(bytes, await encodeParquetReleasing(NLP_RELATIONSHIPS, rows, { piecesOf: 1000 }))).toBe(true)
  })

  it('needs pieces of whole row groups: smaller ones, even of multiples of 1,024 rows, change the file', async () => {
    // Why a piece is a row group (parquet.ts, ROW_GROUP_ROWS) and not 32-64 k rows: arrow-rs 59 writes a
    // column without nulls in runs of 20,000 rows (its page row limit) counted from the start of each
    // batch it is given, checking the page size after each run, so a batch's end moves the page cuts.
    const rows = relationships(45_000)
    const whole = encodeParquet(NLP_RELATIONSHIPS, rows)
    const pieces = await encodeParquetReleasing(NLP_RELATIONSHIPS, rows, { piecesOf: 16 * 1024 })
    expect(same(pieces, whole)).toBe(false)
    const read = await decodeParquetInBatches(NLP_RELATIONSHIPS, pieces, 'relationships.parquet')
    expect(read).toEqual(rows)
  })

  it("collects the caller's garbage before a table goes to the worker, whole or in pieces", async () => {
    for (const options of [{ piecesOf: 100 }, { workerAbove: 0 }]) {
      // 64 MB in V8's large-object space: only a full collection frees it, and nothing else here asks for one.
      let garbage: number[] | undefined = new Array(8_000_000).fill(1.5)
      const collected = new WeakRef(garbage)
      garbage = undefined
      await new Promise((next) => setImmediate(next)) // a WeakRef holds its target until the job that made it ends
      await encodeParquetReleasing(NLP_RELATIONSHIPS, relationships(300), options)
      await new Promise((next) => setImmediate(next))
      expect(collected.deref(), JSON.stringify(options)).toBeUndefined()
    }
  })
})
