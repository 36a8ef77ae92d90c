/**
 * Global-search batches: the reports at the level cut, shuffled with the injected (seeded) rng so
 * no batch is all top-ranked reports, packed greedily into batches of at most max_context_tokens,
 * each sorted by occurrence weight then rank. A report too large for a batch on its own is
 * shortened to fit rather than sent over budget.
 */
import type { EntityRow } from '../../model/index.js'
import { shuffled } from '../rng.js'
import { float, plainRecord, renderRow, renderTable, type ContextRecord } from './table-format.js'
import type { IndexCommunity, IndexReport } from '../load-index.js'

const GLOBAL_REPORT_HEADER = ['id', 'title', 'occurrence weight', 'content', 'rank'] as const

export interface GlobalBatch {
  text: string
  records: ContextRecord[]
}

/** Distinct text units mentioning a report's entities, normalised so the largest is 1. */
export function occurrenceWeights(
  reports: readonly IndexReport[],
  communities: readonly IndexCommunity[],
  entities: readonly EntityRow[],
): Map<number, number> {
  const unitsByEntity = new Map(entities.map((e) => [e.id, e.text_unit_ids ?? []]))
  const wanted = new Set(reports.map((r) => r.community))
  const counts = new Map<number, number>()
  for (const c of communities) {
    if (!wanted.has(c.community)) continue
    const units = new Set((c.entity_ids ?? []).flatMap((id) => unitsByEntity.get(id) ?? []))
    counts.set(c.community, units.size)
  }
  const max = Math.max(0, ...counts.values())
  return new Map(reports.map((r) => [r.community, max > 0 ? (counts.get(r.community) ?? 0) / max : 0]))
}

function globalRecord(r: IndexReport, weight: number): Record<string, string | number | { float: number }> {
  return {
    id: r.community,
    title: r.title,
    'occurrence weight': float(weight),
    content: r.full_content,
    rank: float(r.rank),
  }
}

export function buildGlobalBatches(
  reports: readonly IndexReport[],
  weights: ReadonlyMap<number, number>,
  options: { maxContextTokens: number; historyText: string; rng: () => number },
  countTokens: (text: string) => number,
): GlobalBatch[] {
  const prefix = options.historyText === '' ? '' : `${options.historyText}\n`
  const head = prefix + renderTable('Reports', GLOBAL_REPORT_HEADER, [])
  const room = options.maxContextTokens - countTokens(head)
  const batches: IndexReport[][] = []
  let current: IndexReport[] = []
  let used = 0
  for (const report of shuffled(reports, options.rng)) {
    const fitted = fitReport(report, weights.get(report.community) ?? 0, room, countTokens)
    const cost = countTokens(renderRow(Object.values(globalRecord(fitted, weights.get(report.community) ?? 0))))
    if (current.length > 0 && used + cost > room) {
      batches.push(current)
      current = []
      used = 0
    }
    current.push(fitted)
    used += cost
  }
  if (current.length > 0) batches.push(current)
  return batches.map((batch) => {
    const weight = (r: IndexReport) => weights.get(r.community) ?? 0
    const sorted = [...batch].sort((a, b) => weight(b) - weight(a) || b.rank - a.rank)
    const rows = sorted.map((r) => globalRecord(r, weight(r)))
    return { text: head + rows.map((r) => renderRow(Object.values(r))).join(''), records: rows.map(plainRecord) }
  })
}

/** Shortens a report's content until its row fits `room` tokens. */
function fitReport(
  report: IndexReport,
  weight: number,
  room: number,
  countTokens: (text: string) => number,
): IndexReport {
  let content = report.full_content
  for (let i = 0; i < 20; i++) {
    const cost = countTokens(renderRow(Object.values(globalRecord({ ...report, full_content: content }, weight))))
    if (cost <= room || content.length === 0) break
    content = content.slice(0, Math.max(0, Math.floor((content.length * room) / cost) - 16))
  }
  return content === report.full_content ? report : { ...report, full_content: content }
}
