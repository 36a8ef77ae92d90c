/**
 * Offline answer of global and DRIFT search: with no chat model, the community reports most relevant
 * to the question (by the question's words in title, summary and text), highest rated first when the
 * words do not decide, each with its summary and findings: an extractive overview instead of an error.
 */
import type { SearchContext } from './types.js'
import type { IndexReport } from '../load-index.js'

const STOP_WORDS = new Set(
  'the and for are was were what which who whom whose when where why how this that these those with from into about does did have has had main there their they them its his her not but you your our all any can will would should could'.split(
    ' ',
  ),
)

/** Lower-case words of three letters or more, without common function words. */
function queryTerms(query: string): string[] {
  const words = query.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []
  return [...new Set(words.filter((w) => !STOP_WORDS.has(w)))]
}

/** Term hits weighted by where they occur: title 3, summary 2, full text 1. */
function relevance(report: IndexReport, terms: readonly string[]): number {
  const title = report.title.toLowerCase()
  const summary = report.summary.toLowerCase()
  const text = report.full_content.toLowerCase()
  return terms.reduce(
    (score, t) => score + (title.includes(t) ? 3 : 0) + (summary.includes(t) ? 2 : 0) + (text.includes(t) ? 1 : 0),
    0,
  )
}

function rankReportsOffline(query: string, reports: readonly IndexReport[]): IndexReport[] {
  const terms = queryTerms(query)
  const scored = reports.map((report) => ({ report, score: relevance(report, terms) }))
  return scored
    .sort((a, b) => b.score - a.score || b.report.rank - a.report.rank || a.report.community - b.report.community)
    .map((s) => s.report)
}

/** The markdown answer and its context (the reports shown). */
export function extractiveReportAnswer(
  query: string,
  reports: readonly IndexReport[],
  modelKey: string,
  limit = 5,
): { answer: string; context: SearchContext } {
  const shown = rankReportsOffline(query, reports).slice(0, limit)
  const parts = [
    `_No completion model is configured (${modelKey} is null), so these are the community reports most relevant to the question, highest rated first, as written at indexing._`,
  ]
  shown.forEach((r, i) => {
    const findings = r.findings.slice(0, 5).map((f) => `- ${f.summary.replace(/\s*\n\s*/g, ' ').trim()}`)
    parts.push(
      [
        `## ${i + 1}. ${r.title}`,
        `_Community ${r.community}, level ${r.level}, rating ${r.rank}_`,
        r.summary.trim(),
        ...(findings.length > 0 ? [findings.join('\n')] : []),
      ].join('\n\n'),
    )
  })
  if (shown.length === 0) parts.push('The index has no community reports at this level.')
  const records = shown.map((r) => ({ id: r.id, title: r.title, community: r.community, level: r.level, rank: r.rank }))
  return {
    answer: `${parts.join('\n\n')}\n`,
    context: { records: { reports: records }, text: shown.map((r) => r.full_content).join('\n\n') },
  }
}
