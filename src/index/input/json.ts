/** JSON input: a file holds one object or an array of objects, one document each. */
import { UnreadableTextError } from './decode-text.js'
import { rowsToDocuments, type ColumnOptions, type FileDocuments, type JsonObject } from './rows.js'
import type { JsonValue } from '../../model/schema.js'

export function isJsonObject(value: JsonValue): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
}

export function readJson(text: string, path: string, creationDate: string, columns: ColumnOptions): FileDocuments {
  let parsed: JsonValue
  try {
    // JSON.parse rejects a leading BOM, which Python's json.loads also refuses; strip it for usability.
    parsed = JSON.parse(text.replace(/^\uFEFF/, '')) as JsonValue
  } catch (cause) {
    throw new UnreadableTextError(`not valid JSON (${(cause as Error).message})`)
  }
  const items = Array.isArray(parsed) ? parsed : [parsed]
  const bad = items.findIndex((item) => !isJsonObject(item))
  if (bad >= 0) throw new UnreadableTextError(`item ${bad} is not a JSON object`)
  return rowsToDocuments(items as JsonObject[], path, creationDate, columns)
}
