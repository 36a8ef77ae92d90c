/**
 * What both Parquet readers (parquet-wasm in parquet.ts, plain JavaScript in parquet-js.ts) share when
 * they turn a file's columns into rows of a declared table: the column-by-name matching rules and
 * the errors that name the file.
 */
import { StorageError } from '../errors.js'
import type { ColumnSpec, TableSchema } from '../model/schema.js'

/** Lists read as null become empty lists: every list column of the reference is non-null in practice. */
export function normalise(kind: string, value: unknown): unknown {
  if (value === null && kind.startsWith('list')) return []
  if (value === null && kind === 'findings') return []
  return value
}

/** A required column the file does not have; a missing nullable column reads as null. */
export function missingColumn(schema: TableSchema, col: ColumnSpec, file: string): StorageError {
  return new StorageError(`${file}: missing column "${col.name}" of table ${schema.name}`, { path: file })
}

export function unreadable(file: string, cause: unknown): StorageError {
  return new StorageError(`${file}: not a readable Parquet file (${(cause as Error).message})`, { path: file, cause })
}
