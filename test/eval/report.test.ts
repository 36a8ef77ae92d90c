// The report and the tables from a hand-made result: columns only for measured metrics, the A/A check
// at its tolerance, the three plots, and the same text for the same result.
import { describe, expect, it } from 'vitest'
import type { PairResult } from '../../src/eval/metrics/pairwise.js'
import { htmlReport, markdownReport } from '../../src/eval/report.js'
import type { EvalResult } from '../../src/eval/run.js'
import { aaRows, allTables, renderText } from '../../src/eval/tables.js'

const pair = (a: string, b: string, winRate: number): PairResult => ({
  a,
  b,
  criterion: 'relevance',
  winRate,
  interval: { low: winRate - 0.1, high: winRate + 0.1 },
  wins: 3,
  losses: 1,
  ties: 0,
  p: 0.625,
})

const system = (name: string, metrics: Record<string, number>) => ({
  system: name,
  target: 'demo',
  method: name,
  questions: 4,
  errors: 0,
  calls: 8,
  promptTokens: 1000,
  completionTokens: 200,
  metrics,
  byType: { local: { evidence_recall: metrics.evidence_recall! }, global: { evidence_recall: 0.5 } },
})

const RESULT: EvalResult = {
  questions: 4,
  topK: 10,
  systems: [
    system('basic', { evidence_recall: 0.75, correctness: 0.6, win_rate: 0.7, cost_usd: 0.002, latency_p50_ms: 40 }),
    system('hybrid', { evidence_recall: 1, correctness: 0.8, win_rate: 0.3, cost_usd: 0.004, latency_p50_ms: 90 }),
  ],
  pairs: [pair('basic', 'hybrid', 0.7)],
  aa: [pair('basic', 'basic', 0.6), pair('hybrid', 'hybrid', 0.61)],
  answers: [],
  judge: { model: 'judge', calls: 40, costUsd: 0.01, unusable: 2 },
  unreachable: {},
}

describe('report', () => {
  it('tables show only measured metrics, pairwise rows with interval and W/L/T, and the A/A check at 0.5 ± 0.1', () => {
    const text = allTables(RESULT).map(renderText).join('\n\n')
    expect(text).toContain(
      'system  answered  evidence_recall  correctness  win_rate  latency_p50_ms  cost_usd  calls  tokens\n' +
        'basic   4/4       0.750            0.600        0.700     40              0.00200   8      1200',
    )
    expect(text).not.toContain('answer_recall')
    expect(text).toContain('basic  hybrid  relevance  0.700     0.60–0.80  3/1/0  0.625')
    expect(aaRows(RESULT)).toEqual([
      { system: 'basic', winRate: 0.6, ok: true },
      { system: 'hybrid', winRate: 0.61, ok: false },
    ])
    expect(text).toMatch(/hybrid +0\.610 +FAILED/)
  })

  it('Markdown and HTML carry the tables and three SVG plots, and are the same for the same result', () => {
    const md = markdownReport(RESULT)
    expect(md.match(/<svg /g)).toHaveLength(3)
    expect(md).toContain('Judge: judge, 40 calls, $0.0100, 2 unusable judgements (left out).')
    expect(md).toContain('| basic | hybrid | relevance | 0.700 | 0.60–0.80 | 3/1/0 | 0.625 |')
    expect(md).toContain('correctness against cost per question')
    expect(markdownReport(RESULT)).toBe(md)
    const html = htmlReport(RESULT)
    expect(html.match(/<svg /g)).toHaveLength(3)
    expect(html).toContain('<td>FAILED</td>')
  })

  it('plots latency instead of cost when nothing cost money, and leaves out the win-rate plot without a judge', () => {
    const offline = {
      ...RESULT,
      systems: RESULT.systems.map((s) => ({ ...s, metrics: { ...s.metrics, cost_usd: 0, win_rate: undefined } })),
      pairs: [],
      aa: [],
      judge: null,
    } as unknown as EvalResult
    const md = markdownReport(offline)
    expect(md.match(/<svg /g)).toHaveLength(2)
    expect(md).toContain('correctness against median latency')
    expect(md).toContain('p50 latency, ms (0 – 90.0)')
    expect(md).toContain('No judge model')
  })
})
