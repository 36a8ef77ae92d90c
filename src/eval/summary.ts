/**
 * Aggregation of per-question records into the metrics of each system (an index × a method), overall
 * and by question type. Pure: the same records always give the same summary.
 */
import { methodWinRate, type PairResult } from './metrics/pairwise.js'
import { mean, percentile } from './metrics/stats.js'

/** Metric keys, as the JSON output and `--fail-under` name them. */
export const METRIC_KEYS = [
  'answer_recall',
  'evidence_recall',
  'mrr',
  'correctness',
  'completeness',
  'win_rate',
  'assertion_pass_rate',
  'latency_p50_ms',
  'latency_p95_ms',
  'cost_usd',
] as const
export type MetricKey = (typeof METRIC_KEYS)[number]

/** Metrics where lower is better: `--fail-under` fails when they rise above the bound. */
export const LOWER_IS_BETTER: ReadonlySet<MetricKey> = new Set(['latency_p50_ms', 'latency_p95_ms', 'cost_usd'])

/** The metrics measured on one answer. */
type QuestionMetric =
  | 'answer_recall'
  | 'evidence_recall'
  | 'mrr'
  | 'correctness'
  | 'completeness'
  | 'assertion_pass_rate'
const QUESTION_METRICS: readonly QuestionMetric[] = [
  'answer_recall',
  'evidence_recall',
  'mrr',
  'correctness',
  'completeness',
  'assertion_pass_rate',
]

export type Metrics = Partial<Record<MetricKey, number>>

export interface AnswerRecord {
  questionId: string
  type: string
  /** `method`, or `index/method` when several indexes are compared. */
  system: string
  target: string
  method: string
  response: string
  latencyMs: number
  calls: number
  promptTokens: number
  completionTokens: number
  /** null when a model without a known price was used. */
  costUsd: number | null
  metrics: Partial<Record<QuestionMetric, number>>
  /** The search failed (the message); the answer is left out of every metric but the error count. */
  error?: string
}

export interface SystemSummary {
  system: string
  target: string
  method: string
  questions: number
  errors: number
  calls: number
  promptTokens: number
  completionTokens: number
  metrics: Metrics
  byType: Record<string, Metrics>
}

function qualityOf(records: readonly AnswerRecord[]): Metrics {
  const out: Metrics = {}
  for (const key of QUESTION_METRICS) {
    const value = mean(records.map((r) => r.metrics[key]))
    if (value !== undefined) out[key] = value
  }
  return out
}

/** Mean cost per question; undefined when any answer's cost is unknown (a partial sum would mislead). */
function costOf(records: readonly AnswerRecord[]): number | undefined {
  if (records.some((r) => r.costUsd === null)) return undefined
  return mean(records.map((r) => r.costUsd ?? undefined))
}

function summarizeSystem(records: readonly AnswerRecord[], pairs: readonly PairResult[]): SystemSummary {
  const first = records[0]!
  const answered = records.filter((r) => r.error === undefined)
  const latencies = answered.map((r) => r.latencyMs)
  const metrics: Metrics = { ...qualityOf(answered) }
  const winRate = methodWinRate(pairs, first.system)
  if (winRate !== undefined) metrics.win_rate = winRate
  const p50 = percentile(latencies, 50)
  const p95 = percentile(latencies, 95)
  const cost = costOf(answered)
  if (p50 !== undefined) metrics.latency_p50_ms = p50
  if (p95 !== undefined) metrics.latency_p95_ms = p95
  if (cost !== undefined) metrics.cost_usd = cost
  const types = [...new Set(answered.map((r) => r.type))].sort()
  return {
    system: first.system,
    target: first.target,
    method: first.method,
    questions: records.length,
    errors: records.length - answered.length,
    calls: answered.reduce((s, r) => s + r.calls, 0),
    promptTokens: answered.reduce((s, r) => s + r.promptTokens, 0),
    completionTokens: answered.reduce((s, r) => s + r.completionTokens, 0),
    metrics,
    byType: Object.fromEntries(types.map((t) => [t, qualityOf(answered.filter((r) => r.type === t))])),
  }
}

/** One summary per system, in the order the systems first appear. */
export function summarize(records: readonly AnswerRecord[], pairs: readonly PairResult[]): SystemSummary[] {
  const systems = [...new Set(records.map((r) => r.system))]
  return systems.map((s) =>
    summarizeSystem(
      records.filter((r) => r.system === s),
      pairs,
    ),
  )
}
