/**
 * Shared by the row formats (csv, json, jsonl, parquet): one document per row, with the text, id and
 * title taken from configured columns (dot paths reach nested fields) as in the reference (§5.1).
 */
import { createHash } from 'node:crypto'
import { posix } from 'node:path'
import type { InputDocumentRow } from '../../model/documents.js'
import type { JsonValue } from '../../model/schema.js'
import { UnreadableTextError } from './decode-text.js'

export type JsonObject = { [key: string]: JsonValue }

/** A document before it gets its load-order human_readable_id. */
type DocumentDraft = Omit<InputDocumentRow, 'human_readable_id'>

export interface ColumnOptions {
  /** Column with the document id; null → SHA-512 of the text. */
  readonly idColumn: string | null
  /** Column with the title; null → the file's relative path (plus " (i)" when it has several rows). */
  readonly titleColumn: string | null
  readonly textColumn: string
}

/** What a reader produced from one file: documents plus row-level problems (the file itself was fine). */
export interface FileDocuments {
  readonly documents: DocumentDraft[]
  readonly warnings: string[]
}

export function sha512(text: string): string {
  return createHash('sha512').update(text, 'utf8').digest('hex')
}

/** Looks up `a.b.c` through nested objects; undefined when a step is missing or not an object. */
function getPath(row: JsonObject, path: string): JsonValue | undefined {
  let current: JsonValue | undefined = row
  for (const key of path.split('.')) {
    if (current === null || typeof current !== 'object' || Array.isArray(current) || !Object.hasOwn(current, key)) {
      return undefined
    }
    current = current[key]
  }
  return current
}

/** Python's `str()` of a scalar read from a row (ids and titles are stored as strings). */
function asString(value: JsonValue): string | undefined {
  if (typeof value === 'string') return value
  if (typeof value === 'number') return String(value)
  if (typeof value === 'boolean') return value ? 'True' : 'False'
  return undefined
}

/**
 * Turns parsed rows into documents. A text column missing from every row makes the whole file
 * unusable (as in the reference); a row whose text, id or title is missing or not a scalar is
 * skipped with a warning naming its index.
 */
export function rowsToDocuments(
  rows: readonly JsonObject[],
  path: string,
  creationDate: string,
  columns: ColumnOptions,
): FileDocuments {
  if (rows.length > 0 && rows.every((row) => getPath(row, columns.textColumn) === undefined)) {
    throw new UnreadableTextError(`text column "${columns.textColumn}" not found`)
  }
  const documents: DocumentDraft[] = []
  const warnings: string[] = []
  rows.forEach((row, index) => {
    const field = (column: string): string | undefined => {
      const value = getPath(row, column)
      return value === undefined || value === null ? undefined : asString(value)
    }
    const text = field(columns.textColumn)
    const id = columns.idColumn === null ? (text === undefined ? undefined : sha512(text)) : field(columns.idColumn)
    const title =
      columns.titleColumn === null ? (rows.length > 1 ? `${path} (${index})` : path) : field(columns.titleColumn)
    const missing =
      text === undefined
        ? columns.textColumn
        : id === undefined
          ? columns.idColumn
          : title === undefined
            ? columns.titleColumn
            : null
    if (missing !== null || text === undefined || id === undefined || title === undefined) {
      warnings.push(`${path}: row ${index} skipped: column "${missing}" is missing or not a text/number value`)
      return
    }
    documents.push({ id, text, title, creation_date: creationDate, raw_data: row })
  })
  return { documents, warnings }
}

/** Document metadata for raw_data: the fields that have a value, or null when none has (Parquet cannot store an empty struct). */
export function metadataRow(fields: Readonly<Record<string, string | number | undefined>>): JsonObject | null {
  const row: JsonObject = {}
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== '') row[key] = value
  return Object.keys(row).length === 0 ? null : row
}

/**
 * The one document of a whole-file format (text, pdf, docx, html, xlsx without text_column), titled
 * with the basename. A file with no text at all is not a document: `emptyReason` says why.
 */
export function fileDocument(
  text: string,
  path: string,
  creationDate: string,
  metadata: JsonObject | null,
  emptyReason: string,
): FileDocuments {
  if (text.trim() === '') throw new UnreadableTextError(emptyReason)
  return {
    documents: [
      { id: sha512(text), text, title: posix.basename(path), creation_date: creationDate, raw_data: metadata },
    ],
    warnings: [],
  }
}
