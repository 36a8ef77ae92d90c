/**
 * Parquet encoding of tables through parquet-wasm (arrow-rs) and apache-arrow: SNAPPY like pandas,
 * one Arrow type per declared column, tolerant reading by column name.
 */
import { Table, tableFromIPC, tableToIPC } from './arrow.js'
import * as parquet from 'parquet-wasm/node'
import { StorageError } from '../errors.js'
import type { RowOf, TableSchema } from '../model/schema.js'
import { buildVector, readColumn } from './arrow-columns.js'
import { missingColumn, normalise, unreadable } from './table-rows.js'

/** Encodes rows as a Parquet file following the table declaration's column order and types. */
export function encodeParquet<S extends TableSchema>(schema: S, rows: readonly RowOf<S>[]): Uint8Array {
  const columns: Record<string, ReturnType<typeof buildVector>> = {}
  for (const col of schema.columns) {
    const values = rows.map((row) => (row as Record<string, unknown>)[col.name])
    columns[col.name] = buildVector(col.kind, values)
  }
  const table = new Table(columns)
  const wasmTable = parquet.Table.fromIPCStream(tableToIPC(table, 'stream'))
  const props = new parquet.WriterPropertiesBuilder().setCompression(parquet.Compression.SNAPPY).build()
  return parquet.writeParquet(wasmTable, props)
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

/**
 * decodeParquet, reading a few megabytes of rows at a time. parquet-wasm's memory grows to its
 * largest use and never shrinks: decoding a whole table at once (file, columns and their IPC copy)
 * kept five times the table's text for the rest of the run (250 MB for the text units of 10 M tokens).
 */
export async function decodeParquetInBatches<S extends TableSchema>(
  schema: S,
  bytes: Uint8Array,
  file: string,
): Promise<RowOf<S>[]> {
  let reader: parquet.ParquetFile
  try {
    reader = await parquet.ParquetFile.fromFile(new Blob([bytes]))
  } catch (cause) {
    throw unreadable(file, cause)
  }
  try {
    const { rowCount, byteSize } = sizeOf(reader)
    // No batch would come: the whole-table path still checks the columns.
    if (rowCount === 0) return decodeParquet(schema, bytes, file)
    const rowBytes = byteSize / rowCount
    const batchSize = Math.max(1, Math.min(rowCount, Math.floor(BATCH_BYTES / Math.max(1, rowBytes))))
    const rows: RowOf<S>[] = []
    const stream = (await reader.stream({ batchSize })) as ReadableStream<parquet.RecordBatch>
    for await (const batch of stream)
      for (const row of rowsOf(schema, tableFromIPC(batch.intoIPCStream()), file)) rows.push(row)
    return rows
  } catch (cause) {
    throw cause instanceof StorageError ? cause : unreadable(file, cause)
  } finally {
    reader.free()
  }
}

/** Rows and uncompressed bytes over all row groups (the metadata objects live in wasm memory: freed here). */
function sizeOf(reader: parquet.ParquetFile): { rowCount: number; byteSize: number } {
  const metadata = reader.metadata()
  let rowCount = 0
  let byteSize = 0
  for (const group of metadata.rowGroups()) {
    rowCount += group.numRows()
    byteSize += group.totalByteSize()
    group.free()
  }
  metadata.free()
  return { rowCount, byteSize }
}

function rowsOf<S extends TableSchema>(schema: S, table: Table, file: string): RowOf<S>[] {
  const rows: Record<string, unknown>[] = Array.from({ length: table.numRows }, () => ({}))
  for (const col of schema.columns) {
    const vector = table.getChild(col.name)
    if (vector === null) {
      if (!col.nullable) throw missingColumn(schema, col, file)
      for (const row of rows) row[col.name] = null
      continue
    }
    const values = readColumn(vector)
    for (let i = 0; i < rows.length; i++) rows[i]![col.name] = normalise(col.kind, values[i])
  }
  return rows as RowOf<S>[]
}
