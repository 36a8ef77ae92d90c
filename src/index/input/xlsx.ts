/**
 * Excel (.xlsx) input through read-excel-file. Without `text_column` a workbook is one document: each
 * sheet's name on a line, then its rows with cells separated by tabs, sheets separated by a blank
 * line. With `text_column` each sheet's first row is its header and every other row is a document,
 * as for csv; a sheet without that column is skipped with a warning.
 */
import readXlsxFile from 'read-excel-file/node'
import type { JsonValue } from '../../model/schema.js'
import { UnreadableTextError } from './decode-text.js'
import { assertZip } from './docx.js'
import { coreProperties } from './office-properties.js'
import {
  fileDocument,
  metadataRow,
  rowsToDocuments,
  type ColumnOptions,
  type FileDocuments,
  type JsonObject,
} from './rows.js'

interface Sheet {
  readonly name: string
  readonly rows: readonly (readonly unknown[])[]
}

/** `columns` null: one document per workbook; otherwise one per row. */
export async function readXlsx(
  bytes: Uint8Array,
  path: string,
  creationDate: string,
  columns: ColumnOptions | null,
): Promise<FileDocuments> {
  assertZip(bytes, '.xlsx')
  let sheets: Sheet[]
  try {
    const workbook = await readXlsxFile(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    sheets = workbook.map((sheet) => ({ name: sheet.sheet, rows: sheet.data as unknown[][] }))
  } catch (cause) {
    throw new UnreadableTextError(`not a readable .xlsx file (${(cause as Error).message})`)
  }
  if (columns !== null) return sheetRows(sheets, path, creationDate, columns)
  const properties = coreProperties(bytes)
  const text = sheets
    .map((sheet) =>
      sheet.rows.map((row) => row.map(cellText).join('\t').replace(/\t+$/, '')).filter((line) => line.trim() !== ''),
    )
    .flatMap((lines, i) => (lines.length === 0 ? [] : [[`Sheet: ${sheets[i]!.name}`, ...lines].join('\n')]))
    .join('\n\n')
  const metadata = metadataRow({
    sheet_names: sheets.map((sheet) => sheet.name).join(', '),
    author: properties.author,
    document_title: properties.title,
    created: properties.created,
  })
  return fileDocument(text, path, creationDate, metadata, 'no cell values in any sheet')
}

function sheetRows(
  sheets: readonly Sheet[],
  path: string,
  creationDate: string,
  columns: ColumnOptions,
): FileDocuments {
  const rows: JsonObject[] = []
  const warnings: string[] = []
  const root = columns.textColumn.split('.')[0]!
  for (const sheet of sheets) {
    const [header, ...body] = sheet.rows
    if (header === undefined) continue
    const names = header.map((name, i) =>
      name === null || name === undefined || cellText(name) === '' ? `column_${i + 1}` : cellText(name),
    )
    if (!names.includes(root)) {
      warnings.push(`${path}: sheet "${sheet.name}" skipped: text column "${columns.textColumn}" not found`)
      continue
    }
    for (const values of body) {
      const row: JsonObject = {}
      names.forEach((name, i) => (row[name] = cellJson(values[i])))
      rows.push(row)
    }
  }
  if (rows.length === 0 && warnings.length > 0)
    throw new UnreadableTextError(`text column "${columns.textColumn}" not found in any sheet`)
  const result = rowsToDocuments(rows, path, creationDate, columns)
  return { documents: result.documents, warnings: [...warnings, ...result.warnings] }
}

function cellJson(value: unknown): JsonValue {
  if (value === null || value === undefined) return null
  if (value instanceof Date) return dateText(value)
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value
  return String(value)
}

function cellText(value: unknown): string {
  if (value === null || value === undefined) return ''
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE'
  if (value instanceof Date) return dateText(value)
  return String(value).replace(/\s+/g, ' ').trim()
}

/** A date cell as ISO 8601: the day alone when it has no time of day. */
function dateText(date: Date): string {
  const iso = date.toISOString()
  return iso.endsWith('T00:00:00.000Z') ? iso.slice(0, 10) : iso.replace('.000Z', 'Z')
}
