/** Claims (covariates) about the selected entities, in entity order then table order. */
import type { CovariateRow, EntityRow } from '../../model/index.js'
import { fillRows, renderRow, renderTable } from './table-format.js'

const CLAIM_HEADER = ['id', 'entity', 'object_id', 'status', 'start_date', 'end_date', 'description'] as const

export function selectClaims(selected: readonly EntityRow[], covariates: readonly CovariateRow[]): CovariateRow[] {
  const bySubject = new Map<string, CovariateRow[]>()
  for (const c of covariates) {
    if (c.subject_id === null) continue
    const list = bySubject.get(c.subject_id) ?? []
    list.push(c)
    bySubject.set(c.subject_id, list)
  }
  return selected.flatMap((e) => bySubject.get(e.title) ?? [])
}

export function claimRecord(c: CovariateRow): Record<string, string | number> {
  return {
    id: c.human_readable_id,
    entity: c.subject_id ?? '',
    object_id: c.object_id ?? '',
    status: c.status ?? '',
    start_date: c.start_date ?? '',
    end_date: c.end_date ?? '',
    description: c.description ?? '',
  }
}

export function claimTable(
  rows: readonly CovariateRow[],
  budget: number,
  countTokens: (text: string) => number,
): { text: string; kept: CovariateRow[]; tokens: number } {
  if (rows.length === 0) return { text: '', kept: [], tokens: 0 }
  // Lower-case, as the reference names this section after its covariate key (`-----claims-----`).
  const head = renderTable('claims', CLAIM_HEADER, [])
  const headTokens = countTokens(head)
  const fill = fillRows(rows, (c) => renderRow(Object.values(claimRecord(c))), budget - headTokens, countTokens)
  if (fill.kept.length === 0) return { text: '', kept: [], tokens: 0 }
  return { text: head + fill.rows.join(''), kept: fill.kept, tokens: headTokens + fill.tokens }
}
