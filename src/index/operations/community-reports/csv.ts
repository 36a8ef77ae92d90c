/**
 * CSV the way the reference's context tables are written (pandas `to_csv(index=False)` on Linux):
 * a header line, `\n` line ends including a trailing one, and QUOTE_MINIMAL: a field is wrapped in
 * double quotes (with `"` doubled) only when it contains a comma, a quote, `\n` or `\r`.
 */

export type CsvValue = string | number | null

function renderField(value: CsvValue): string {
  if (value === null) return ''
  const text = typeof value === 'number' ? String(value) : value
  return /[",\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/** One CSV line with its `\n`. */
export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(renderField).join(',')}\n`
}

/** Renders `rows` (each in `columns` order) with a header line. */
export function toCsv(columns: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return csvLine(columns) + rows.map(csvLine).join('')
}

/** The title line and header line of a context section. */
export function sectionHead(label: string, columns: readonly string[]): string {
  return `-----${label}-----\n${csvLine(columns)}`
}
