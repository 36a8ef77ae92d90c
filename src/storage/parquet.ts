/**
 * Parquet encoding of tables through parquet-wasm (arrow-rs) and apache-arrow: SNAPPY like pandas,
 * one Arrow type per declared column, tolerant reading by column name.
 */
import { openAsBlob } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Table, tableFromIPC, tableToIPC } from './arrow.js'
import * as parquet from 'parquet-wasm/node'
import { StorageError } from '../errors.js'
import type { RowOf, TableSchema } from '../model/schema.js'
import { buildVector, readColumn, type StringInterner } from './arrow-columns.js'
import { type ArrowStreamPlan, arrowStreamPlan, wholeStream } from './arrow-stream.js'
import { collectGarbage } from './collect-garbage.js'
import {
  decodeOnWorker,
  encodeBatchesOnWorker,
  encodeBatchesToFile,
  encodeOnWorker,
  encodeToFile,
} from './parquet-worker.js'
import { writeFileAtomic, writeFileAtomicBy } from './atomic-write.js'
import { columnBuffers, releaseNow } from './release-buffers.js'
import { missingColumn, normalise, unreadable } from './table-rows.js'
import type { ColumnSink } from './table-columns.js'
import type { RowSource } from './table-store.js'

/**
 * Tables with more data than this (Arrow IPC bytes when writing, uncompressed Parquet bytes when
 * reading) are written and read on a worker thread (parquet-worker.ts), whose WebAssembly memory is
 * returned when it ends; below it, the shared instance's memory stays at a few hundred megabytes at
 * most and is reused table after table.
 */
const WORKER_TABLE_BYTES = 32 * 2 ** 20

/**
 * Where a table goes through parquet-wasm: `workerAbove` is WORKER_TABLE_BYTES and `piecesOf` is
 * ROW_GROUP_ROWS (the rows handed to the writer at a time), but for tests.
 */
export interface ParquetOptions {
  workerAbove?: number
  piecesOf?: number
  /** Writing on a worker: the bytes of a piece's Arrow IPC stream handed over at a time (8 MB), but for tests. */
  windowOf?: number
  /** Writing several pieces: the writer's rows per row group (arrow-rs's default, ROW_GROUP_ROWS), but for tests. */
  rowGroupRows?: number
  /** Reading: only the rows whose index in the file passes (TableStore's ReadOptions.rows). */
  rows?: (index: number) => boolean
  /** Reading: the decoded batches go here instead of becoming rows (TableStore's ReadOptions.columns). */
  columns?: ColumnSink
}

/** Encodes rows as a Parquet file following the table declaration's column order and types. */
export function encodeParquet<S extends TableSchema>(schema: S, rows: readonly RowOf<S>[]): Uint8Array {
  return writeArrowStream(arrowStream(schema, rows))
}

/**
 * Rows per Parquet row group: arrow-rs's default (max_row_group_size), which the writer applies to any
 * table. Each row group is written from scratch (its pages, dictionaries and statistics restart), so a
 * table handed over one row group at a time is written to the same bytes as the whole table at once;
 * smaller pieces would not be (pages are cut after runs of rows counted from the start of each piece).
 */
export const ROW_GROUP_ROWS = 1024 * 1024

/**
 * encodeParquet, writing a big table on a worker thread (same bytes; memory returned afterwards). A
 * table of more than one row group goes over in Arrow form one row group at a time, so only one row
 * group's Arrow buffers exist at once (a noun graph's millions of text-unit id lists came to ~1.5 GB),
 * and each row group's stream goes over a window at a time straight into the worker's WebAssembly
 * memory (parquet-worker.ts), so no thread holds it whole beside the worker's copy.
 */
export async function encodeParquetReleasing<S extends TableSchema>(
  schema: S,
  rows: RowSource<RowOf<S>>,
  options: ParquetOptions = {},
): Promise<Uint8Array> {
  const { windowOf, rowGroupRows } = options
  return routeEncoding(schema, rows, options, {
    pieces: (pieces) => encodeBatchesOnWorker(pieces, windowOf, rowGroupRows),
    inline: async (bytes) => bytes,
    worker: (plan) => encodeOnWorker(plan, windowOf),
  })
}

/**
 * encodeParquetReleasing into the file at `path`, atomically (atomic-write.ts). What goes through a worker
 * is written by the worker straight into the file: a table of several row groups as parquet-wasm hands
 * each over, a big table of one piece straight from the writer's WebAssembly memory, so the file is
 * never whole in JavaScript memory beside the writer's own.
 */
export async function writeParquetReleasing<S extends TableSchema>(
  schema: S,
  rows: RowSource<RowOf<S>>,
  path: string,
  options: ParquetOptions = {},
): Promise<void> {
  const { windowOf, rowGroupRows } = options
  await mkdir(dirname(path), { recursive: true })
  await routeEncoding(schema, rows, options, {
    pieces: (pieces) => writeFileAtomicBy(path, (tmp) => encodeBatchesToFile(pieces, tmp, windowOf, rowGroupRows)),
    inline: (bytes) => writeFileAtomic(path, bytes),
    worker: (plan) => writeFileAtomicBy(path, (tmp) => encodeToFile(plan, tmp, windowOf)),
  })
}

/** Where encodeParquetReleasing's and writeParquetReleasing's three kinds of table go. */
interface EncodingRoutes<T> {
  /** More than one row group: the row groups' streams, one at a time, to a worker. */
  pieces(pieces: Iterable<ArrowStreamPlan>): Promise<T>
  /** A small table: already encoded here. */
  inline(bytes: Uint8Array): Promise<T>
  /** A big table of one piece: its stream to a worker. */
  worker(plan: ArrowStreamPlan): Promise<T>
}

/** Picks how a table is encoded (in pieces, here, or on a worker) and hands it to that route. */
function routeEncoding<S extends TableSchema, T>(
  schema: S,
  rows: RowSource<RowOf<S>>,
  { workerAbove = WORKER_TABLE_BYTES, piecesOf = ROW_GROUP_ROWS }: ParquetOptions,
  routes: EncodingRoutes<T>,
): Promise<T> {
  if (rows.length > piecesOf) return routes.pieces(piecePlans(schema, rows, piecesOf))
  const plan = streamPlan(schema, Array.isArray(rows) ? (rows as readonly RowOf<S>[]) : rows.slice())
  if (plan.byteLength <= workerAbove) return routes.inline(writeArrowStream(wholeStream(plan)))
  // The caller's garbage goes before the worker's copy of the stream (twice its size) lands on top of it.
  collectGarbage()
  return routes.worker(plan)
}

/** Writes on the shared instance, with the writer properties parquet-worker.ts also uses. */
function writeArrowStream(ipc: Uint8Array): Uint8Array {
  const props = new parquet.WriterPropertiesBuilder().setCompression(parquet.Compression.SNAPPY).build()
  return parquet.writeParquet(parquet.Table.fromIPCStream(ipc), props)
}

/** The rows as an Arrow IPC stream (see streamPlan). */
function arrowStream<S extends TableSchema>(schema: S, rows: readonly RowOf<S>[]): Uint8Array {
  return wholeStream(streamPlan(schema, rows))
}

/**
 * The rows as an Arrow IPC stream: laid out a column at a time and written when asked for where the
 * columns allow (arrow-stream.ts), else made now from Arrow vectors, freed at once once serialised
 * (release-buffers.ts).
 */
function streamPlan<S extends TableSchema>(schema: S, rows: readonly RowOf<S>[]): ArrowStreamPlan {
  const direct = arrowStreamPlan(schema, rows)
  if (direct !== undefined) return direct
  const columns: Record<string, ReturnType<typeof buildVector>> = {}
  for (const col of schema.columns) {
    const values = rows.map((row) => (row as Record<string, unknown>)[col.name])
    columns[col.name] = buildVector(col.kind, values)
  }
  const ipc = tableToIPC(new Table(columns), 'stream')
  releaseNow(columnBuffers(Object.values(columns), ipc.buffer))
  return {
    byteLength: ipc.byteLength,
    *windows(size) {
      if (size >= ipc.byteLength) return yield ipc
      for (let at = 0; at < ipc.byteLength; at += size) {
        const window = ipc.slice(at, at + size)
        // The stream goes with its last window (the worker asks for no more after it).
        if (at + size >= ipc.byteLength) releaseNow([ipc.buffer as ArrayBuffer])
        yield window
      }
    },
  }
}

/**
 * The rows as one Arrow IPC stream per `size` rows, each laid out when asked for, after a full garbage
 * collection (collect-garbage.ts): the caller's garbage, and the previous piece's layout, go before the
 * worker's copy of the next piece lands on top of them.
 */
function* piecePlans<S extends TableSchema>(
  schema: S,
  rows: RowSource<RowOf<S>>,
  size: number,
): Generator<ArrowStreamPlan> {
  for (let start = 0; start < rows.length; start += size) {
    collectGarbage()
    yield streamPlan(schema, rows.slice(start, start + size))
  }
}

/** Decodes an Arrow table from Parquet bytes. */
export function decodeArrow(bytes: Uint8Array): Table {
  const wasmTable = parquet.readParquet(bytes)
  return tableFromIPC(wasmTable.intoIPCStream())
}

/**
 * Decodes Parquet bytes into rows of the declared shape. Columns are matched by name; extra columns
 * are ignored and a missing nullable column reads as null, so files written by other GraphRAG
 * versions still load. A missing required column is an error naming the file and the column.
 */
export function decodeParquet<S extends TableSchema>(schema: S, bytes: Uint8Array, file: string): RowOf<S>[] {
  let table: Table
  try {
    table = decodeArrow(bytes)
  } catch (cause) {
    throw unreadable(file, cause)
  }
  return rowsOf(schema, table, file)
}

/** Uncompressed bytes per record batch when reading in batches. */
const BATCH_BYTES = 4 * 2 ** 20

/** Reads of one row group at most (each batch is read by itself, at its offset): see readBatchRows. */
const MAX_READS_PER_GROUP = 16

/**
 * Rows per batch: about BATCH_BYTES of them, but at least a MAX_READS_PER_GROUP-th of the largest row
 * group. parquet-wasm reaches a batch's offset by going through the group's rows before it, so a read
 * of k batches per group goes through the group ~k/2 times: the communities of the 30 MB dense corpus
 * (14,610 rows of up to 4 MB of relationship ids, one group) came to one row a batch and never finished.
 */
export function readBatchRows(rowCount: number, largestGroupRows: number, rowBytes: number): number {
  const bySize = Math.floor(BATCH_BYTES / Math.max(1, rowBytes))
  const byGroup = Math.ceil(largestGroupRows / MAX_READS_PER_GROUP)
  return Math.max(1, Math.min(rowCount, Math.max(bySize, byGroup)))
}

/**
 * decodeParquet, reading a few megabytes of rows at a time. parquet-wasm's memory grows to its
 * largest use and never shrinks: decoding a whole table at once (file, columns and their IPC copy)
 * kept five times the table's text for the rest of the run (250 MB for the text units of 10 M tokens).
 */
export async function decodeParquetInBatches<S extends TableSchema>(
  schema: S,
  source: { path: string } | Uint8Array,
  file: string,
  { workerAbove = WORKER_TABLE_BYTES, rows: keep, columns: sink }: ParquetOptions = {},
): Promise<RowOf<S>[]> {
  // A file is read through a Blob backed by it: the decoder reads the footer and then each column
  // chunk from disk, so no copy of the whole file is held while the rows are built.
  let blob: Blob
  let reader: parquet.ParquetFile
  try {
    blob = source instanceof Uint8Array ? new Blob([source]) : await openAsBlob(source.path)
    reader = await parquet.ParquetFile.fromFile(blob)
  } catch (cause) {
    throw unreadable(file, cause)
  }
  const rows: RowOf<S>[] = []
  const add = batchTaker(schema, file, rows, keep, sink)
  let readerOpen = true
  const close = () => {
    if (readerOpen) reader.free()
    readerOpen = false
  }
  try {
    const { rowCount, byteSize, present, largestGroupRows } = sizeOf(
      reader,
      new Set(schema.columns.map((col) => col.name)),
    )
    // Only the declared columns are read (a workflow may declare fewer than the file has); one it
    // lacks reads as null or is reported by rowsOf. With none to read, the whole-table path does both.
    const columns = schema.columns.map((col) => col.name).filter((name) => present.has(name))
    if (rowCount === 0 || columns.length === 0) {
      const all = decodeParquet(schema, new Uint8Array(await blob.arrayBuffer()), file)
      const kept = keep === undefined ? all : all.filter((_, i) => keep(i))
      if (sink === undefined) return kept
      sink.expect(all.length, file)
      sink.rows(kept)
      return []
    }
    sink?.expect(rowCount, file)
    // The footer's sizes are of the encoded pages: a dictionary-encoded column (text-unit ids repeated
    // over millions of relationships) decodes to a hundred times its size, so a few rows are decoded to see.
    const encodedRowBytes = byteSize / rowCount
    const probeRows = Math.min(PROBE_ROWS, rowCount, Math.floor(PROBE_BYTES / Math.max(1, encodedRowBytes)))
    const rowBytes = Math.max(encodedRowBytes, probeRows === 0 ? 0 : await decodedRowBytes(reader, columns, probeRows))
    const batchSize = readBatchRows(rowCount, largestGroupRows, rowBytes)
    const options = { batchSize, columns, rowCount }
    if (rowBytes * rowCount > workerAbove) {
      close()
      const onWorker = source instanceof Uint8Array ? blob : source.path
      for await (const ipc of decodeOnWorker(onWorker, options)) add(ipc)
      return rows
    }
    for await (const ipc of readBatches(reader, options)) add(ipc)
    return rows
  } catch (cause) {
    throw cause instanceof StorageError ? cause : unreadable(file, cause)
  } finally {
    close()
  }
}

/**
 * What takes each decoded batch (an Arrow IPC stream): rows made and pushed, or the batch handed to a
 * column sink; `keep` picks rows by their index in the table.
 */
function batchTaker<S extends TableSchema>(
  schema: S,
  file: string,
  rows: RowOf<S>[],
  keep: ParquetOptions['rows'],
  sink: ColumnSink | undefined,
): (ipc: Uint8Array) => void {
  const interner: StringInterner = new Map()
  let index = 0
  return (ipc) => {
    const table = tableFromIPC(ipc)
    if (sink !== undefined) {
      sink.arrow(table, index, keep)
      index += table.numRows
    } else for (const row of rowsOf(schema, table, file, interner)) if (keep?.(index++) ?? true) rows.push(row)
  }
}

/**
 * Rows decoded to see what a row of the wanted columns takes in Arrow form: up to PROBE_ROWS, and no
 * more than PROBE_BYTES of the file's pages (on the shared instance). Rows larger than that (long
 * texts) are not probed: their pages, not dictionaries, are their size.
 */
const PROBE_ROWS = 1024
const PROBE_BYTES = 64 * 1024

/** Arrow IPC bytes per row of the first `limit` rows of `columns`. */
async function decodedRowBytes(reader: parquet.ParquetFile, columns: string[], limit: number): Promise<number> {
  const table = await reader.read({ batchSize: limit, limit, columns })
  return table.intoIPCStream().byteLength / limit
}

/**
 * The rows of `columns` as Arrow IPC streams of `batchSize` rows, each read by itself (offset and
 * limit): ParquetFile.stream decodes a whole row group ahead of its reader, ~500 MB of WebAssembly
 * memory for a million relationships with their text-unit ids, whatever the batch size. The worker
 * (parquet-worker.ts) reads the same way.
 */
async function* readBatches(
  reader: parquet.ParquetFile,
  { batchSize, columns, rowCount }: { batchSize: number; columns: string[]; rowCount: number },
): AsyncGenerator<Uint8Array> {
  for (let offset = 0; offset < rowCount; offset += batchSize)
    yield (await reader.read({ offset, limit: batchSize, batchSize, columns })).intoIPCStream()
}

/**
 * Rows, the uncompressed bytes of the wanted columns over all row groups, and the columns the file
 * has (the metadata objects live in wasm memory: freed here).
 */
function sizeOf(
  reader: parquet.ParquetFile,
  wanted: ReadonlySet<string>,
): { rowCount: number; byteSize: number; present: Set<string>; largestGroupRows: number } {
  const metadata = reader.metadata()
  let rowCount = 0
  let largestGroupRows = 0
  let byteSize = 0
  const present = new Set<string>()
  for (const group of metadata.rowGroups()) {
    rowCount += group.numRows()
    largestGroupRows = Math.max(largestGroupRows, group.numRows())
    for (const chunk of group.columns()) {
      const name = chunk.columnPath()[0] ?? ''
      present.add(name)
      if (wanted.has(name)) byteSize += chunk.uncompressedSize()
      chunk.free()
    }
    group.free()
  }
  metadata.free()
  return { rowCount, byteSize, present, largestGroupRows }
}

function rowsOf<S extends TableSchema>(schema: S, table: Table, file: string, interner?: StringInterner): RowOf<S>[] {
  const rows: Record<string, unknown>[] = Array.from({ length: table.numRows }, () => ({}))
  for (const col of schema.columns) {
    const vector = table.getChild(col.name)
    if (vector === null) {
      if (!col.nullable) throw missingColumn(schema, col, file)
      for (const row of rows) row[col.name] = null
      continue
    }
    const values = readColumn(vector, interner)
    for (let i = 0; i < rows.length; i++) rows[i]![col.name] = normalise(col.kind, values[i])
  }
  return rows as RowOf<S>[]
}
