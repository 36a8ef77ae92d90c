/** JSON Lines input: one object per non-blank line; a malformed or non-object line is skipped with a warning. */
import type { JsonValue } from '../../model/schema.js'
import { isJsonObject } from './json.js'
import { rowsToDocuments, type ColumnOptions, type FileDocuments, type JsonObject } from './rows.js'

export function readJsonl(text: string, path: string, creationDate: string, columns: ColumnOptions): FileDocuments {
  const rows: JsonObject[] = []
  const warnings: string[] = []
  text
    .replace(/^\uFEFF/, '')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return
      let value: JsonValue
      try {
        value = JSON.parse(line) as JsonValue
      } catch (cause) {
        warnings.push(`${path}: line ${index + 1} skipped: not valid JSON (${(cause as Error).message})`)
        return
      }
      if (isJsonObject(value)) rows.push(value)
      else warnings.push(`${path}: line ${index + 1} skipped: not a JSON object`)
    })
  const result = rowsToDocuments(rows, path, creationDate, columns)
  return { documents: result.documents, warnings: [...warnings, ...result.warnings] }
}
