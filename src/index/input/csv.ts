/**
 * CSV input: csv-parse reads RFC 4180 (quoted fields, embedded newlines, doubled quotes) and the
 * reader maps rows to documents. Like Python's csv.DictReader, the first record is the header, every
 * value is a string, a short row gets null for its missing columns and extra values are dropped.
 */
import { CsvError, parse } from 'csv-parse/sync'
import { UnreadableTextError } from './decode-text.js'
import { rowsToDocuments, type ColumnOptions, type FileDocuments, type JsonObject } from './rows.js'

/**
 * Splits CSV text (newlines already normalised to LF) into records of fields. As in Python's csv
 * module, a quote inside an unquoted field is a character like any other, rows may differ in length
 * and blank lines are not records. One difference on malformed input: text after a closing quote
 * (`"abc"def`) keeps its quotes here, where Python drops them.
 */
export function parseCsv(text: string): string[][] {
  try {
    return parse(text, { relax_quotes: true, relax_column_count: true, skip_empty_lines: true }) as string[][]
  } catch (error) {
    if (!(error instanceof CsvError)) throw error
    if (error.code === 'CSV_QUOTE_NOT_CLOSED') {
      // The open record starts after the bytes of the complete ones (csv-parse counts UTF-8 bytes).
      const before = Buffer.from(text).subarray(0, (error as CsvError & { bytes_records: number }).bytes_records)
      const line = before.toString('utf8').split('\n').length
      throw new UnreadableTextError(`unterminated quoted field starting on line ${line}`)
    }
    throw new UnreadableTextError(`not valid CSV (${error.message})`)
  }
}

/** Records → row objects keyed by the header. A leading BOM is not part of the first column name. */
export function csvRows(text: string): JsonObject[] {
  const [header, ...body] = parseCsv(text)
  if (header === undefined) return []
  const names = header.map((name, i) => (i === 0 ? name.replace(/^\uFEFF/, '') : name))
  return body.map((values) => {
    const row: JsonObject = {}
    names.forEach((name, i) => {
      row[name] = i < values.length ? values[i]! : null
    })
    return row
  })
}

export function readCsv(text: string, path: string, creationDate: string, columns: ColumnOptions): FileDocuments {
  return rowsToDocuments(csvRows(text), path, creationDate, columns)
}
