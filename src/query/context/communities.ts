/**
 * Which community reports answer at level L. The reference keeps every report with level ≤ L, so
 * a parent and its children repeat each other; we keep the documented intent instead: the
 * deepest report ≤ L on each branch of the hierarchy (a report is dropped when one of its
 * children at level ≤ L has a report), so every entity is covered exactly once.
 */
import type { CommunityReportRow, CommunityRow } from '../../model/index.js'

/** Reports at level ≤ L whose children (at level ≤ L) have no report: the hierarchy cut at L. */
export function reportsAtLevel(
  reports: readonly CommunityReportRow[],
  communities: readonly CommunityRow[],
  level: number,
): CommunityReportRow[] {
  const eligible = reports.filter((r) => r.level <= level)
  const reported = new Set(eligible.map((r) => r.community))
  const children = childrenByCommunity(reports, communities)
  return eligible.filter((r) => !(children.get(r.community) ?? []).some((c) => reported.has(c)))
}

/** Children per community number, from both tables (older indexes may lack one of the columns). */
export function childrenByCommunity(
  reports: readonly CommunityReportRow[],
  communities: readonly CommunityRow[],
): Map<number, number[]> {
  const out = new Map<number, Set<number>>()
  const add = (parent: number, kids: readonly number[] | null | undefined) => {
    let set = out.get(parent)
    if (set === undefined) out.set(parent, (set = new Set()))
    for (const k of kids ?? []) set.add(k)
  }
  for (const c of communities) {
    add(c.community, c.children)
    if (c.parent !== null && c.parent >= 0) add(c.parent, [c.community])
  }
  for (const r of reports) add(r.community, r.children)
  return new Map([...out].map(([k, v]) => [k, [...v]]))
}

/**
 * Entity id → the selected communities it belongs to (normally one). Entities in no selected
 * community are simply absent: they stay searchable, they just bring no report.
 */
export function communitiesByEntity(
  selected: readonly CommunityReportRow[],
  communities: readonly CommunityRow[],
): Map<string, number[]> {
  const wanted = new Set(selected.map((r) => r.community))
  const out = new Map<string, number[]>()
  for (const c of communities) {
    if (!wanted.has(c.community)) continue
    for (const id of c.entity_ids ?? []) {
      const list = out.get(id)
      if (list === undefined) out.set(id, [c.community])
      else if (!list.includes(c.community)) list.push(c.community)
    }
  }
  return out
}
