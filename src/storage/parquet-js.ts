/**
 * Parquet reading in plain JavaScript (hyparquet), for the query path: loading parquet-wasm and
 * compiling the part of it a read runs costs ~0.3 s of CPU before the first row, more than a query on a small
 * index spends on everything else (docs/performance.md, start-up). Indexing keeps parquet-wasm,
 * which also writes the files. Both give the same rows for every table (test/storage/parquet-js.test.ts
 * compares them on our files and on the reference's pyarrow-written ones).
 */
import { parquetMetadata, parquetRead, parquetSchema } from '../vendor/hyparquet.js'
import { StorageError } from '../errors.js'
import type { RowOf, TableSchema } from '../model/schema.js'
import { missingColumn, normalise, unreadable } from './table-rows.js'

// Strings keep a leading U+FEFF (hyparquet's default decoder drops it; the reference's texts have one).
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })
const parsers = { stringFromBytes: (bytes: Uint8Array | undefined) => bytes && utf8.decode(bytes) }

/** Whether this reader reads every column of `schema` (free-form `json` columns stay with parquet-wasm). */
export function readsWithJs(schema: TableSchema): boolean {
  return schema.columns.every((col) => col.kind !== 'json')
}

/** Decodes Parquet bytes into rows of the declared shape, with decodeParquet's rules and errors. */
export async function decodeParquetJs<S extends TableSchema>(
  schema: S,
  bytes: Uint8Array,
  file: string,
): Promise<RowOf<S>[]> {
  if (!readsWithJs(schema)) throw new TypeError(`${schema.name}: json columns are read with parquet-wasm`)
  const buffer =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? (bytes.buffer as ArrayBuffer)
      : (bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer)
  // Column by column (hyparquet's onChunk), so no intermediate row objects are built; rows take the
  // declared column order, as decodeParquet's do.
  const columns = new Map<string, unknown[]>()
  let rowCount: number
  try {
    const metadata = parquetMetadata(buffer)
    const present = new Set(parquetSchema(metadata).children.map((child) => child.element.name))
    for (const col of schema.columns)
      if (!present.has(col.name) && !col.nullable) throw missingColumn(schema, col, file)
    rowCount = Number(metadata.num_rows)
    for (const col of schema.columns) if (present.has(col.name)) columns.set(col.name, new Array(rowCount))
    await parquetRead({
      file: buffer,
      metadata,
      columns: [...columns.keys()],
      parsers,
      // Raw bytes stay bytes (and fail below, as in parquet-wasm), only text columns become strings.
      utf8: false,
      onChunk: ({ columnName, columnData, rowStart, rowEnd }) => {
        const target = columns.get(columnName) as unknown[]
        const end = Math.min(rowEnd, rowCount)
        for (let row = Math.max(rowStart, 0); row < end; row++) target[row] = columnData[row - rowStart]
      },
    })
  } catch (cause) {
    throw cause instanceof StorageError ? cause : unreadable(file, cause)
  }
  const rows: Record<string, unknown>[] = new Array(rowCount)
  try {
    for (let i = 0; i < rowCount; i++) {
      const row: Record<string, unknown> = {}
      for (const col of schema.columns) {
        const values = columns.get(col.name)
        row[col.name] = values === undefined ? null : normalise(col.kind, plain(values[i]))
      }
      rows[i] = row
    }
  } catch (cause) {
    // A column of a type no table declares (raw bytes, say): the file is not one of ours to read.
    throw unreadable(file, cause)
  }
  return rows as RowOf<S>[]
}

/**
 * A decoded value as the Arrow reader gives it: int64 as a JS number (bigint from hyparquet), lists
 * as arrays (typed arrays included), structs as plain objects; null and undefined as null.
 */
function plain(value: unknown): unknown {
  if (value === null || value === undefined) return null
  if (typeof value === 'bigint') return Number(value)
  if (typeof value !== 'object') return value
  if (Array.isArray(value)) return value.map(plain)
  if (ArrayBuffer.isView(value) && !(value instanceof DataView) && !(value instanceof Uint8Array))
    return Array.from(value as unknown as ArrayLike<number | bigint>, plain)
  if (Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {}
    for (const [key, item] of Object.entries(value)) out[key] = plain(item)
    return out
  }
  throw new TypeError(`unsupported Parquet value ${Object.prototype.toString.call(value)}`)
}
