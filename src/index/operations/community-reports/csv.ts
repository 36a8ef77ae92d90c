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

/** Renders `rows` (each in `columns` order) with a header line. */
export function toCsv(columns: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  const lines = [columns.map(renderField).join(',')]
  for (const row of rows) lines.push(row.map(renderField).join(','))
  return lines.join('\n') + '\n'
}

/** A titled context section: `-----Label-----` then its CSV. */
export function renderSection(label: string, columns: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return `-----${label}-----\n${toCsv(columns, rows)}`
}
