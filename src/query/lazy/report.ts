/**
 * What lazy search reports beside its answer (`--json` prints it as `lazy`, `--explain` as text):
 * the sub-questions, every relevance test and its verdict along the community path, the budget
 * spent, the concept subgraph, the claims kept, the citations and the usage per model.
 */
import { costUsd, type Pricing } from '../../llm/pricing.js'
import type { UsageSummary } from '../usage.js'
import type { Deepening } from './deepening.js'

interface LazyVisit {
  community: number
  level: number
  depth: number
  /** Human-readable ids of the units tested, and of those judged relevant. */
  tested: string[]
  relevant: string[]
}

export interface LazySubquery {
  question: string
  budget: number
  tests: number
  /** Text units ranked for it (vector + BM25). */
  ranked_units: number
  stop: Deepening['stop']
  visits: LazyVisit[]
}

export interface ModelUsage {
  role: 'answer' | 'relevance'
  model: string
  calls: number
  prompt_tokens: number
  completion_tokens: number
  cost_usd: number | null
}

export interface LazyReport {
  budget: number
  /** Text units put before the relevance model (never more than budget). */
  tests: number
  relevance_calls: number
  bm25: boolean
  subqueries: LazySubquery[]
  /** Human-readable ids of every unit judged relevant, in the order found. */
  relevant: string[]
  concepts: { count: number; relationships: number; top: string[] }
  /** Relevant units the claim step read (at most what the answer's context can hold the claims of), claims from them, kept in the context, dropped. */
  claims: { units: number; extracted: number; kept: number; dropped: number }
  references: Array<{ label: string; id: string }>
  unknown_citations: string[]
  usage_by_model: ModelUsage[]
}

/** One sub-question's walk with unit ids shown as their labels. */
export function subqueryReport(
  question: string,
  budget: number,
  rankedUnits: number,
  walk: Deepening,
  label: (id: string) => string,
): LazySubquery {
  const visits = walk.visits.map((v) => ({
    community: v.community,
    level: v.level,
    depth: v.depth,
    tested: v.tested.map(label),
    relevant: v.relevant.map(label),
  }))
  const tests = visits.reduce((n, v) => n + v.tested.length, 0)
  return { question, budget, tests, ranked_units: rankedUnits, stop: walk.stop, visits }
}

export interface UsedModel {
  model: string
  price: Pricing | undefined
}

/** Usage of the answer model (every step but the relevance tests) and of the relevance model. */
export function usageByModel(usage: UsageSummary, answer: UsedModel, relevance: UsedModel): ModelUsage[] {
  const steps = Object.entries(usage.byStep)
  const sum = (pick: (step: string) => boolean) =>
    steps
      .filter(([step]) => pick(step))
      .reduce((a, [, s]) => ({ calls: a.calls + s.calls, p: a.p + s.promptTokens, c: a.c + s.completionTokens }), {
        calls: 0,
        p: 0,
        c: 0,
      })
  const row = (role: ModelUsage['role'], model: UsedModel, used: ReturnType<typeof sum>): ModelUsage => ({
    role,
    model: model.model,
    calls: used.calls,
    prompt_tokens: used.p,
    completion_tokens: used.c,
    cost_usd: used.p + used.c === 0 ? 0 : model.price === undefined ? null : costUsd(model.price, used.p, used.c),
  })
  return [
    row(
      'answer',
      answer,
      sum((s) => s !== 'relevance'),
    ),
    row(
      'relevance',
      relevance,
      sum((s) => s === 'relevance'),
    ),
  ]
}

/** The path as text: per sub-question, each community visited (indented by depth) and its verdicts. */
export function renderPath(report: Pick<LazyReport, 'budget' | 'tests' | 'subqueries' | 'relevant' | 'bm25'>): string {
  const lines = [
    `# Lazy search path`,
    '',
    `Relevance budget ${report.budget}: ${report.tests} text units tested, ${report.relevant.length} relevant${report.bm25 ? '' : ' (ranked by vector similarity only: no full-text table)'}.`,
  ]
  report.subqueries.forEach((q, i) => {
    lines.push('', `## Sub-question ${i + 1}: ${q.question}`, '')
    lines.push(
      `${q.tests} of ${q.budget} tests spent over ${q.ranked_units} ranked units; stopped: ${q.stop === 'budget' ? 'budget spent' : 'every branch ended'}.`,
      '',
    )
    if (q.visits.length === 0) lines.push('- no community holds a ranked unit')
    for (const v of q.visits) {
      const verdict = v.relevant.length > 0 ? `relevant: ${v.relevant.join(', ')}` : 'none relevant'
      lines.push(
        `${'  '.repeat(v.depth)}- community ${v.community} (level ${v.level}): tested ${v.tested.join(', ')}; ${verdict}`,
      )
    }
  })
  return `${lines.join('\n')}\n`
}
