/**
 * The eval report: the tables as Markdown (or a self-contained HTML page) with inline SVG plots:
 * win rates, recall per question type, and quality against cost (or latency when nothing cost money).
 */
import type { EvalResult } from './run.js'
import type { MetricKey } from './summary.js'
import { type Bar, barChart, type Point, scatterPlot } from './svg.js'
import { allTables, renderMarkdown, type Table } from './tables.js'
import { escapeMarkup } from '../text/markup.js'

function winRateChart(result: EvalResult): string | undefined {
  const bars: Bar[] = result.systems.flatMap((s) =>
    s.metrics.win_rate === undefined ? [] : [{ label: s.system, value: s.metrics.win_rate }],
  )
  const aa: Bar[] = [...new Set(result.aa.map((p) => p.a))].map((system) => {
    const rows = result.aa.filter((p) => p.a === system)
    const avg = (f: (p: (typeof rows)[number]) => number) => rows.reduce((t, p) => t + f(p), 0) / rows.length
    return {
      label: `${system} vs itself`,
      value: avg((p) => p.winRate),
      low: avg((p) => p.interval.low),
      high: avg((p) => p.interval.high),
    }
  })
  if (bars.length + aa.length === 0) return undefined
  return barChart('Win rate against the other systems (A/A: against itself, expected 0.5)', [...bars, ...aa], {
    max: 1,
    marker: 0.5,
  })
}

/** The first recall metric any system measured: evidence recall, else answer-token recall. */
function recallKey(result: EvalResult): MetricKey | undefined {
  const types = result.systems.flatMap((s) => Object.values(s.byType))
  return (['evidence_recall', 'answer_recall'] as const).find((k) => types.some((m) => m[k] !== undefined))
}

function recallChart(result: EvalResult): string | undefined {
  const key = recallKey(result)
  if (key === undefined) return undefined
  const bars = result.systems.flatMap((s) =>
    Object.entries(s.byType).flatMap(([type, m]) =>
      m[key] === undefined ? [] : [{ label: `${type} · ${s.system}`, value: m[key] }],
    ),
  )
  bars.sort((a, b) => a.label.localeCompare(b.label))
  return barChart(`${key} per question type`, bars, { max: 1 })
}

function costChart(result: EvalResult): string | undefined {
  const quality = (['correctness', 'answer_recall', 'evidence_recall'] as const).find((k) =>
    result.systems.some((s) => s.metrics[k] !== undefined),
  )
  if (quality === undefined) return undefined
  const anyCost = result.systems.some((s) => (s.metrics.cost_usd ?? 0) > 0)
  const costKey: MetricKey = anyCost ? 'cost_usd' : 'latency_p50_ms'
  const points: Point[] = result.systems.flatMap((s) =>
    s.metrics[quality] === undefined || s.metrics[costKey] === undefined
      ? []
      : [{ label: s.system, x: s.metrics[costKey], y: s.metrics[quality] }],
  )
  return scatterPlot(`${quality} against ${anyCost ? 'cost per question' : 'median latency'}`, points, {
    x: anyCost ? 'USD per question' : 'p50 latency, ms',
    y: quality,
  })
}

function charts(result: EvalResult): string[] {
  return [winRateChart(result), recallChart(result), costChart(result)].filter((c): c is string => c !== undefined)
}

function judgeLine(result: EvalResult): string {
  if (result.judge === null)
    return 'No judge model (eval.judge_model_id is null): retrieval, cost and latency metrics only.'
  const cost = result.judge.costUsd === null ? 'unknown cost' : `$${result.judge.costUsd.toFixed(4)}`
  return `Judge: ${result.judge.model}, ${result.judge.calls} calls, ${cost}, ${result.judge.unusable} unusable judgements (left out).`
}

export function markdownReport(result: EvalResult): string {
  const sections = allTables(result).map((t: Table) => `## ${t.title}\n\n${renderMarkdown(t)}`)
  return ['# graphrag eval report', judgeLine(result), ...charts(result).map((svg) => `<div>${svg}</div>`), ...sections]
    .join('\n\n')
    .concat('\n')
}

function htmlTable(t: Table): string {
  const row = (cells: readonly string[], tag: string) =>
    `<tr>${cells.map((c) => `<${tag}>${escapeMarkup(c)}</${tag}>`).join('')}</tr>`
  return `<h2>${escapeMarkup(t.title)}</h2><table>${row(t.header, 'th')}${t.rows.map((r) => row(r, 'td')).join('')}</table>`
}

export function htmlReport(result: EvalResult): string {
  const style =
    'body{font-family:sans-serif;margin:2em;max-width:1100px}table{border-collapse:collapse;margin-bottom:1.5em}' +
    'td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:13px}'
  return `<!doctype html><html><head><meta charset="utf-8"><title>graphrag eval report</title><style>${style}</style></head><body><h1>graphrag eval report</h1><p>${judgeLine(result)}</p>${charts(result).join('\n')}${allTables(result).map(htmlTable).join('\n')}</body></html>\n`
}
