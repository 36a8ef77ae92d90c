/**
 * The Reports section of a local context: the reports of the communities the selected entities
 * belong to (at the level cut, see communities.ts), most matched entities first, then by rank.
 * No section at all when nothing fits (the reference emits a literal `[]`).
 */
import type { EntityRow } from '../../model/index.js'
import { fillRows, renderRow, renderTable } from './table-format.js'
import type { IndexReport } from '../load-index.js'

const REPORT_HEADER = ['id', 'title', 'content'] as const

export function rankReportsForEntities(
  selected: readonly EntityRow[],
  communityByEntity: ReadonlyMap<string, number>,
  reportsByCommunity: ReadonlyMap<number, IndexReport>,
): IndexReport[] {
  const matches = new Map<number, number>()
  for (const e of selected) {
    const c = communityByEntity.get(e.id)
    if (c !== undefined) matches.set(c, (matches.get(c) ?? 0) + 1)
  }
  const candidates = [...matches.keys()].filter((c) => reportsByCommunity.has(c))
  candidates.sort(
    (a, b) => matches.get(b)! - matches.get(a)! || reportsByCommunity.get(b)!.rank - reportsByCommunity.get(a)!.rank,
  )
  return candidates.map((c) => reportsByCommunity.get(c)!)
}

export function reportRecord(r: IndexReport): Record<string, string | number> {
  return { id: r.community, title: r.title, content: r.full_content }
}

export function reportTable(
  reports: readonly IndexReport[],
  budget: number,
  countTokens: (text: string) => number,
): { text: string; kept: IndexReport[]; tokens: number } {
  if (reports.length === 0) return { text: '', kept: [], tokens: 0 }
  const head = renderTable('Reports', REPORT_HEADER, [])
  const headTokens = countTokens(head)
  const fill = fillRows(reports, (r) => renderRow(Object.values(reportRecord(r))), budget - headTokens, countTokens)
  if (fill.kept.length === 0) return { text: '', kept: [], tokens: 0 }
  return { text: head + fill.rows.join(''), kept: fill.kept, tokens: headTokens + fill.tokens }
}
