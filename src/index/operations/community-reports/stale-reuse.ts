/**
 * Bounded staleness for `graphrag update` (community_reports.update_max_context_change): a community
 * whose context changed may keep its earlier report when the change is small and took nothing away
 * from what the report was written from. Three rules, checked against the rows of the context the report was
 * written from (its anchor, recorded with the model's reply), not the previous generation's, so
 * successive updates cannot let a report drift further than the bound:
 *
 * 1. no anchor row that is no longer in the context as written is gone from the index or lost a
 *    supporting text unit: a deleted or edited document took it, and the report may repeat what no
 *    document says any more (a row that lost a text unit but reads the same lost nothing);
 * 2. every substituted sub-community report of the anchor is still there word for word (a changed
 *    one may have been rewritten for rule 1);
 * 3. the Jaccard distance between the anchor's rows and today's (a row whose text changed counts as
 *    one removed and one added; a member that moved to another community, as removed) is at most
 *    the bound.
 *
 * Row texts are compared in canonical form (stable-reuse.ts): ids as identities, degrees left out. A
 * report written with another prompt template, word limit or model is never kept.
 */
import { createHash } from 'node:crypto'
import type { CommunityRow } from '../../../model/communities.js'
import type { CommunityReportRow } from '../../../model/community-reports.js'
import type { CovariateRow } from '../../../model/covariates.js'
import type { EntityRow } from '../../../model/entities.js'
import type { RelationshipRow } from '../../../model/relationships.js'
import {
  type CanonicalContext,
  encodeReport,
  everyId,
  type IdentityMaps,
  isMappedRowKey,
  rowKey,
  type StoredReport,
} from './stable-reuse.js'

/**
 * What is recorded of the context a report was written from, one short string per data row: `m`
 * (a row of a mapped table) or `o` (a substituted report), 16 hex digits naming the row (rowName),
 * then 12 of its canonical text. Hashes, because an anchor is kept for every report in model_replies.
 */
export interface ReportAnchor {
  /** What else the reply rested on: prompt template, max_length and model (reportBasis). */
  basis: string
  rows: string[]
}

/** The prompt template, word limit and model a report was written with: a report written otherwise is never kept. */
export function reportBasis(prompt: string, maxReportLength: number, model: string): string {
  return sha(JSON.stringify([prompt, maxReportLength, model]), 64)
}

const sha = (text: string, digits: number): string => createHash('sha256').update(text).digest('hex').slice(0, digits)
const NAME_LENGTH = 17

/** The recorded name of a context row (CanonicalContext row key, e.g. rowKey's). */
export function rowName(key: string): string {
  return (isMappedRowKey(key) ? 'm' : 'o') + sha(key, NAME_LENGTH - 1)
}

/**
 * Where the anchor of a community's report is recorded: a hash of the report in stored
 * (identity-cited) form and the community it stands for. Two communities can receive the same report
 * text (a parent and its only child, or a model that repeats itself) from different contexts: each
 * keeps its own anchor, so the table is the same whichever reply came last.
 */
export function anchorKey(stored: StoredReport, community: number): string {
  return anchorKeyOfJson(`${JSON.stringify(stored.report)},${JSON.stringify(stored.refs)}`, community)
}

/**
 * anchorKey given `report,refs` as JSON (the two written out, comma-separated): the same key, where a
 * recorded entry holds that text already and parsing it would only give it back.
 */
export function anchorKeyOfJson(reportAndRefs: string, community: number): string {
  return `anchor:${createHash('sha256')
    .update(`[${reportAndRefs},${JSON.stringify(community)}]`)
    .digest('hex')}`
}

/** Where an index written before anchors were keyed by community recorded a report's anchor (report only). */
export function legacyAnchorKey(stored: StoredReport): string {
  return `anchor:${createHash('sha256')
    .update(JSON.stringify([stored.report, stored.refs]))
    .digest('hex')}`
}

/** The anchor of a context: its canonical rows, hashed, and what the report is written with. */
export function anchorOf(rows: CanonicalContext['rows'], basis: string): ReportAnchor {
  return { basis, rows: rows.map((r) => rowName(r.key) + sha(r.text, 12)) }
}

export type StaleDecision =
  | { keep: true; change: number }
  | {
      keep: false
      change: number
      reason: 'written otherwise' | 'content removed' | 'sub-report changed' | 'changed too much'
    }

/**
 * Whether a report written from `anchor` may stand for a community whose context is now `current`.
 * `losing`: names (rowName) of rows gone from the index or that lost a supporting text unit since the
 * previous generation (rowsLosingContent).
 */
export function staleDecision(
  anchor: ReportAnchor,
  current: ReportAnchor,
  losing: ReadonlySet<string>,
  maxChange: number,
): StaleDecision {
  const then = new Set(anchor.rows)
  const now = new Set(current.rows)
  let shared = 0
  for (const row of then) if (now.has(row)) shared++
  const union = then.size + now.size - shared
  const change = union === 0 ? 0 : 1 - shared / union
  if (anchor.basis !== current.basis) return { keep: false, change, reason: 'written otherwise' }
  for (const row of then) {
    if (now.has(row)) continue
    if (losing.has(row.slice(0, NAME_LENGTH))) return { keep: false, change, reason: 'content removed' }
    if (!row.startsWith('m')) return { keep: false, change, reason: 'sub-report changed' }
  }
  return change <= maxChange ? { keep: true, change } : { keep: false, change, reason: 'changed too much' }
}

/** One generation's graph tables, as far as support goes. */
export interface SupportTables {
  entities: ReadonlyArray<Pick<EntityRow, 'title' | 'text_unit_ids'>>
  relationships: ReadonlyArray<Pick<RelationshipRow, 'source' | 'target' | 'text_unit_ids'>>
  claims: ReadonlyArray<Pick<CovariateRow, 'id' | 'text_unit_id'>> | null
}

/**
 * Names (rowName) of the rows (entities, relationships, claims) of `previous` that are gone from
 * `current` or lost a supporting text unit: what a deleted or edited document took with it.
 */
export function rowsLosingContent(previous: SupportTables, current: SupportTables): Set<string> {
  const out = new Set<string>()
  const compare = <R>(table: 'Entities' | 'Relationships' | 'Claims', rows: SupportRows<R>) => {
    const now = new Map(rows.now.map((r) => [rows.identity(r), rows.units(r)]))
    for (const row of rows.before) {
      const identity = rows.identity(row)
      const units = now.get(identity)
      if (units === undefined || !holdsAll(units, rows.units(row))) out.add(rowName(rowKey(table, identity)))
    }
  }
  compare('Entities', {
    before: previous.entities,
    now: current.entities,
    identity: (e) => e.title,
    units: (e) => e.text_unit_ids,
  })
  compare('Relationships', {
    before: previous.relationships,
    now: current.relationships,
    identity: (r) => `${r.source}\u0000${r.target}`,
    units: (r) => r.text_unit_ids,
  })
  compare('Claims', {
    before: previous.claims ?? [],
    now: current.claims ?? [],
    identity: (c) => c.id,
    units: (c) => [c.text_unit_id],
  })
  return out
}

/** One table of both generations, with what names a row in each and the text units it stands on. */
interface SupportRows<R> {
  before: readonly R[]
  now: readonly R[]
  identity: (row: R) => string
  units: (row: R) => readonly string[]
}

/** Whether `held` has every id of `wanted`: at once when it starts with them (lists mostly only grow). */
function holdsAll(held: readonly string[], wanted: readonly string[]): boolean {
  if (wanted.every((id, i) => held[i] === id)) return true
  const set = new Set(held)
  return wanted.every((id) => set.has(id))
}

/** Names (rowName) of the text units (SOURCES rows) of `previous` that `current` lacks: a deleted or edited document's. */
export function unitsGone(
  previous: ReadonlyArray<{ id: string }>,
  current: ReadonlyArray<{ id: string }>,
): Set<string> {
  const now = new Set(current.map((u) => u.id))
  return new Set(previous.filter((u) => !now.has(u.id)).map((u) => rowName(rowKey('Sources', u.id))))
}

/** The columns of a report row its stored form is made of. */
export type StoredReportRow = Pick<
  CommunityReportRow,
  'community' | 'title' | 'summary' | 'findings' | 'rank' | 'rating_explanation'
>

/**
 * The previous generation's reports by community number, in stored (identity-cited) form: the form
 * their anchors were recorded under. A report citing an id its tables lack is left out.
 */
export function storedReports(reports: readonly StoredReportRow[], maps: IdentityMaps): Map<number, StoredReport> {
  const every = everyId(maps)
  const out = new Map<number, StoredReport>()
  for (const r of reports) {
    const stored = storedReport(r, maps, every)
    if (stored !== undefined) out.set(r.community, stored)
  }
  return out
}

/**
 * storedReports one community at a time, each encoded when first asked for: an update asks only for
 * the communities whose context changed, and encoding every previous report costs seconds at 100k.
 */
export function storedReportLookup(
  reports: readonly StoredReportRow[],
  maps: IdentityMaps,
): (community: number) => StoredReport | undefined {
  const rows = new Map(reports.map((r) => [r.community, r]))
  const encoded = new Map<number, StoredReport | undefined>()
  let every: ReturnType<typeof everyId> | undefined
  return (community) => {
    if (!encoded.has(community)) {
      const row = rows.get(community)
      every ??= everyId(maps)
      encoded.set(community, row === undefined ? undefined : storedReport(row, maps, every))
    }
    return encoded.get(community)
  }
}

function storedReport(
  r: StoredReportRow,
  maps: IdentityMaps,
  every: ReturnType<typeof everyId>,
): StoredReport | undefined {
  const content = {
    title: r.title,
    summary: r.summary,
    findings: r.findings.map((f) => ({ summary: f.summary, explanation: f.explanation })),
    rating: r.rank,
    rating_explanation: r.rating_explanation,
  }
  return encodeReport(content, maps, every)
}

/** One generation's communities and the entities their entity_ids name. */
export interface Membership {
  communities: ReadonlyArray<Pick<CommunityRow, 'community' | 'level' | 'entity_ids'>>
  entities: ReadonlyArray<Pick<EntityRow, 'id' | 'title'>>
}

/**
 * For each current community, the previous community of the same level that shares most of its
 * members (by entity title; ties to the lower number): the report it may keep. Community numbers do
 * not carry this: one whose members changed takes the lowest number left.
 */
export function predecessors(previous: Membership, current: Membership): Map<number, number> {
  const of = predecessorOf(previous, current)
  const out = new Map<number, number>()
  for (const c of current.communities) {
    const from = of(c.community)
    if (from !== undefined) out.set(c.community, from)
  }
  return out
}

/**
 * predecessors one community at a time: an update asks only for the communities whose context
 * changed (a few hundred of ~28,000 at 100,001 entities).
 */
export function predecessorOf(previous: Membership, current: Membership): (community: number) => number | undefined {
  const before = titlesById(previous)
  // level → title → the previous community holding it there
  const home = new Map<number, Map<string, number>>()
  for (const c of previous.communities) {
    let level = home.get(c.level)
    if (level === undefined) home.set(c.level, (level = new Map()))
    for (const id of c.entity_ids) {
      const title = before.get(id)
      if (title !== undefined) level.set(title, c.community)
    }
  }
  const byNumber = new Map(current.communities.map((c) => [c.community, c]))
  let now: Map<string, string> | undefined
  return (community) => {
    const c = byNumber.get(community)
    const level = c === undefined ? undefined : home.get(c.level)
    if (c === undefined || level === undefined) return undefined
    now ??= titlesById(current)
    const shared = new Map<number, number>()
    for (const id of c.entity_ids) {
      const title = now.get(id)
      const from = title === undefined ? undefined : level.get(title)
      if (from !== undefined) shared.set(from, (shared.get(from) ?? 0) + 1)
    }
    let best: [number, number] | undefined
    for (const [from, n] of shared)
      if (best === undefined || n > best[1] || (n === best[1] && from < best[0])) best = [from, n]
    return best?.[0]
  }
}

const titlesById = (m: Membership): Map<string, string> => new Map(m.entities.map((e) => [e.id, e.title]))
