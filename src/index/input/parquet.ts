/**
 * Parquet input: one document per row, rows as plain objects (Python's `to_pylist()`). Strings are
 * decoded by our column reader so a leading BOM survives; other Arrow types fall back to Arrow's own
 * conversion (dates become ISO strings, 64-bit integers numbers).
 */
import type { Vector } from 'apache-arrow'
import type { JsonValue } from '../../model/schema.js'
import { readColumn } from '../../storage/arrow-columns.js'
import { decodeArrow } from '../../storage/parquet.js'
import { UnreadableTextError } from './decode-text.js'
import { rowsToDocuments, type ColumnOptions, type FileDocuments, type JsonObject } from './rows.js'

function parquetRows(bytes: Uint8Array): JsonObject[] {
  let table: ReturnType<typeof decodeArrow>
  try {
    table = decodeArrow(bytes)
  } catch (cause) {
    throw new UnreadableTextError(`not a readable Parquet file (${(cause as Error).message})`)
  }
  const rows: JsonObject[] = Array.from({ length: table.numRows }, () => ({}))
  for (const field of table.schema.fields) {
    const values = columnValues(field.name, table.getChild(field.name)!)
    values.forEach((value, i) => {
      rows[i]![field.name] = value
    })
  }
  return rows
}

function columnValues(name: string, vector: Vector): JsonValue[] {
  try {
    return readColumn(vector).map(toJson)
  } catch {
    try {
      return Array.from(vector.toArray() as ArrayLike<unknown>, toJson)
    } catch (cause) {
      throw new UnreadableTextError(
        `column "${name}" has an unsupported type ${String(vector.type)} (${(cause as Error).message})`,
      )
    }
  }
}

function toJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null
  if (typeof value === 'bigint') return Number(value)
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  if (value instanceof Date) return value.toISOString()
  if (Array.isArray(value) || ArrayBuffer.isView(value)) return Array.from(value as ArrayLike<unknown>, toJson)
  if (typeof value === 'object') {
    const plain =
      typeof (value as { toJSON?: unknown }).toJSON === 'function' ? (value as { toJSON(): unknown }).toJSON() : value
    const out: JsonObject = {}
    for (const [k, v] of Object.entries(plain as object)) out[k] = toJson(v)
    return out
  }
  return String(value)
}

export function readParquet(
  bytes: Uint8Array,
  path: string,
  creationDate: string,
  columns: ColumnOptions,
): FileDocuments {
  return rowsToDocuments(parquetRows(bytes), path, creationDate, columns)
}
