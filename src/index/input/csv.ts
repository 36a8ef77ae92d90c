/**
 * CSV input: an RFC 4180 parser (quoted fields, embedded newlines, doubled quotes) and the reader
 * that maps rows to documents. Like Python's csv.DictReader, the first record is the header, every
 * value is a string, a short row gets null for its missing columns and extra values are dropped.
 */
import { UnreadableTextError } from './decode-text.js'
import { rowsToDocuments, type ColumnOptions, type FileDocuments, type JsonObject } from './rows.js'

/** Splits CSV text (newlines already normalised to LF) into records of fields. */
export function parseCsv(text: string): string[][] {
  const records: string[][] = []
  let record: string[] = []
  let field = ''
  let inQuotes = false
  let quotedLine = 0
  let line = 1
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (inQuotes) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"'
        i++
      } else if (c === '"') {
        inQuotes = false
      } else {
        if (c === '\n') line++
        field += c
      }
    } else if (c === '"' && field === '') {
      inQuotes = true
      quotedLine = line
    } else if (c === ',') {
      record.push(field)
      field = ''
    } else if (c === '\n') {
      record.push(field)
      records.push(record)
      record = []
      field = ''
      line++
    } else {
      field += c
    }
  }
  if (inQuotes) throw new UnreadableTextError(`unterminated quoted field starting on line ${quotedLine}`)
  if (field !== '' || record.length > 0) {
    record.push(field)
    records.push(record)
  }
  // Blank lines are not records (as csv.DictReader skips them).
  return records.filter((r) => !(r.length === 1 && r[0] === ''))
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
