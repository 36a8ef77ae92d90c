/**
 * Renders context tables: `|`-separated rows with CSV quoting (QUOTE_MINIMAL) for every table, so
 * a description holding a newline or a `|` never corrupts a row (the reference quotes only some
 * tables). Numbers print as Python does, which is what prompts written for GraphRAG expect.
 */

export type Cell = string | number | null | undefined | { float: number }

/** A float column value: printed with a decimal part (`8.0`) as Python prints floats. */
export function float(value: number): { float: number } {
  return { float: value }
}

/** Python `repr` of a float: shortest round trip, always a decimal part or exponent. */
function pythonFloat(value: number): string {
  if (Number.isNaN(value)) return 'nan'
  if (!Number.isFinite(value)) return value > 0 ? 'inf' : '-inf'
  if (value === 0) return Object.is(value, -0) ? '-0.0' : '0.0'
  const abs = Math.abs(value)
  if (abs >= 1e16 || abs < 1e-4) {
    // Python switches to exponent form at 1e16 and below 1e-4, with a signed two-digit exponent.
    const [mantissa, exp] = value.toExponential().split('e') as [string, string]
    const sign = exp.startsWith('-') ? '-' : '+'
    const digits = exp.replace(/^[+-]/, '').padStart(2, '0')
    return `${mantissa}e${sign}${digits}`
  }
  const text = String(value)
  return /[.e]/.test(text) ? text : `${text}.0`
}

function formatCell(cell: Cell): string {
  if (cell === null || cell === undefined) return ''
  if (typeof cell === 'number') return Number.isInteger(cell) ? String(cell) : pythonFloat(cell)
  if (typeof cell === 'object') return pythonFloat(cell.float)
  return cell
}

/** QUOTE_MINIMAL on `|`: quote a field holding the separator, a quote or a line break. */
function quoteField(text: string): string {
  return /[|"\n\r]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text
}

/** One rendered row, newline included. */
export function renderRow(cells: readonly Cell[]): string {
  return `${cells.map((c) => quoteField(formatCell(c))).join('|')}\n`
}

/** A table section: optional `-----Title-----` line, header, rows. */
export function renderTable(title: string | null, header: readonly string[], rows: readonly string[]): string {
  const head = title === null ? '' : sectionTitle(title)
  return `${head}${renderRow(header)}${rows.join('')}`
}

function sectionTitle(title: string): string {
  return `-----${title}-----\n`
}

/**
 * Greedy fill under a token budget: rows are rendered and counted exactly as emitted; a row that
 * does not fit is skipped (a later, shorter one may still fit) instead of ending the table.
 */
export function fillRows<T>(
  items: readonly T[],
  render: (item: T) => string,
  budget: number,
  countTokens: (text: string) => number,
  maxRows = Number.POSITIVE_INFINITY,
): { rows: string[]; kept: T[]; tokens: number } {
  const rows: string[] = []
  const kept: T[] = []
  let tokens = 0
  for (const item of items) {
    if (kept.length >= maxRows) break
    const row = render(item)
    const cost = countTokens(row)
    if (tokens + cost > budget) continue
    rows.push(row)
    kept.push(item)
    tokens += cost
  }
  return { rows, kept, tokens }
}

/** A context table as JSON records (for `--json` and the library result). */
export type ContextRecord = Record<string, string | number>
export type ContextRecords = Record<string, ContextRecord[]>

export function plainRecord(record: Readonly<Record<string, Cell>>): ContextRecord {
  const out: ContextRecord = {}
  for (const [k, v] of Object.entries(record))
    out[k] = v === null || v === undefined ? '' : typeof v === 'object' ? v.float : v
  return out
}
