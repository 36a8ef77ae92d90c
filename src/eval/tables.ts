/**
 * The tables of an eval result as rows of cells, rendered as aligned text (terminal) or Markdown
 * (report). Columns of metrics no system measured are left out.
 */
import type { PairResult } from './metrics/pairwise.js'
import type { EvalResult } from './run.js'
import { METRIC_KEYS, type MetricKey, type Metrics } from './summary.js'

export interface Table {
  title: string
  header: string[]
  rows: string[][]
}

/** How far the A/A win rate may stray from 0.5 before the check fails. */
const AA_TOLERANCE = 0.1

function formatMetric(key: MetricKey, value: number | undefined): string {
  if (value === undefined) return '–'
  if (key === 'latency_p50_ms' || key === 'latency_p95_ms') return value.toFixed(0)
  if (key === 'cost_usd') return value.toFixed(5)
  return value.toFixed(3)
}

function measured(metrics: readonly Metrics[], keys: readonly MetricKey[] = METRIC_KEYS): MetricKey[] {
  return keys.filter((k) => metrics.some((m) => m[k] !== undefined))
}

function systemsTable(result: EvalResult): Table {
  const keys = measured(result.systems.map((s) => s.metrics))
  return {
    title: `Metrics per system (${result.questions} questions, evidence recall@${result.topK})`,
    header: ['system', 'answered', ...keys, 'calls', 'tokens'],
    rows: result.systems.map((s) => [
      s.system,
      `${s.questions - s.errors}/${s.questions}`,
      ...keys.map((k) => formatMetric(k, s.metrics[k])),
      String(s.calls),
      String(s.promptTokens + s.completionTokens),
    ]),
  }
}

function typesTable(result: EvalResult): Table {
  const all = result.systems.flatMap((s) => Object.values(s.byType))
  const keys = measured(all)
  return {
    title: 'Metrics per question type',
    header: ['system', 'type', ...keys],
    rows: result.systems.flatMap((s) =>
      Object.entries(s.byType).map(([type, m]) => [s.system, type, ...keys.map((k) => formatMetric(k, m[k]))]),
    ),
  }
}

function pairRow(p: PairResult): string[] {
  return [
    p.a,
    p.b,
    p.criterion,
    p.winRate.toFixed(3),
    `${p.interval.low.toFixed(2)}–${p.interval.high.toFixed(2)}`,
    `${p.wins}/${p.losses}/${p.ties}`,
    p.p < 0.001 ? '<0.001' : p.p.toFixed(3),
  ]
}

function pairsTable(result: EvalResult): Table {
  return {
    title: 'Pairwise win rates of A over B (both orders judged; 95% bootstrap interval; sign test p)',
    header: ['A', 'B', 'criterion', 'win rate', '95% CI', 'W/L/T', 'p'],
    rows: result.pairs.map(pairRow),
  }
}

/** Each system against itself: the mean of its criteria should be 0.5 ± AA_TOLERANCE. */
export function aaRows(result: EvalResult): Array<{ system: string; winRate: number; ok: boolean }> {
  const systems = [...new Set(result.aa.map((p) => p.a))]
  return systems.map((system) => {
    const rates = result.aa.filter((p) => p.a === system).map((p) => p.winRate)
    const winRate = rates.reduce((s, r) => s + r, 0) / rates.length
    return { system, winRate, ok: Math.abs(winRate - 0.5) <= AA_TOLERANCE }
  })
}

function aaTable(result: EvalResult): Table {
  return {
    title: `A/A check (each system against itself; expected 0.5 ± ${AA_TOLERANCE})`,
    header: ['system', 'win rate', 'check'],
    rows: aaRows(result).map((r) => [r.system, r.winRate.toFixed(3), r.ok ? 'ok' : 'FAILED']),
  }
}

export function allTables(result: EvalResult): Table[] {
  const tables = [systemsTable(result), typesTable(result)]
  if (result.pairs.length > 0) tables.push(pairsTable(result))
  if (result.aa.length > 0) tables.push(aaTable(result))
  return tables
}

export function renderText(table: Table): string {
  const widths = table.header.map((h, i) => Math.max(h.length, ...table.rows.map((r) => r[i]!.length)))
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  return [table.title, line(table.header), ...table.rows.map(line)].join('\n')
}

export function renderMarkdown(table: Table): string {
  const escapePipe = (c: string) => c.replace(/\|/g, '\\|')
  const line = (cells: readonly string[]) => `| ${cells.map(escapePipe).join(' | ')} |`
  return [line(table.header), `|${table.header.map(() => '---').join('|')}|`, ...table.rows.map(line)].join('\n')
}
