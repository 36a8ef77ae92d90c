/**
 * Which community reports answer at level L. The reference keeps every report with level ≤ L, so
 * a parent and its children repeat each other; we keep the documented intent instead: each entity
 * is covered by the deepest community at level ≤ L that has a report, and exactly those reports
 * are kept. A parent whose children's reports cover all its entities is dropped; one with an
 * entity in no reported child (that child's report is missing) stays, for that entity.
 */
import type { IndexCommunity, IndexReport } from '../load-index.js'

/** The reports covering the entities at level ≤ L (and reports whose members are unknown). */
export function reportsAtLevel(
  reports: readonly IndexReport[],
  communities: readonly IndexCommunity[],
  level: number,
): IndexReport[] {
  const eligible = reports.filter((r) => r.level <= level)
  const covering = new Set(communityByEntity(eligible, communities).values())
  const known = new Set(communities.filter((c) => (c.entity_ids ?? []).length > 0).map((c) => c.community))
  return eligible.filter((r) => covering.has(r.community) || !known.has(r.community))
}

/** Children per community number, from both tables (older indexes may lack one of the columns). */
export function childrenByCommunity(
  reports: readonly IndexReport[],
  communities: readonly IndexCommunity[],
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
 * Entity id → the deepest of the given reports' communities that contains it. Entities in none are
 * simply absent: they stay searchable, they just bring no report.
 */
export function communityByEntity(
  reports: readonly IndexReport[],
  communities: readonly IndexCommunity[],
): Map<string, number> {
  const levelOf = new Map(reports.map((r) => [r.community, r.level]))
  const out = new Map<string, number>()
  for (const c of communities) {
    const level = levelOf.get(c.community)
    if (level === undefined) continue
    for (const id of c.entity_ids ?? []) {
      const current = out.get(id)
      if (current === undefined || level > levelOf.get(current)!) out.set(id, c.community)
    }
  }
  return out
}
