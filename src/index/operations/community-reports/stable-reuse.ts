/**
 * Report reuse that survives renumbering: human_readable_ids are row positions, so adding or removing
 * one entity shifts the ids (and so the prompt) of every community after it. A context is reduced to
 * a canonical form, computed from its typed rows (context-rows.ts), where each id is replaced by the
 * row's stable identity (entity title, relationship source/target, claim id), degrees are dropped and
 * rows sorted (see canonicalContext); a report whose canonical context equals an earlier one is that
 * earlier report with its `[Data: …]` citations renumbered through identity → new id. Anything that cannot be
 * mapped (an id cited that is in no table) makes the context or report ineligible, never guessed.
 */
import { createHash } from 'node:crypto'
import type { CovariateRow } from '../../../model/covariates.js'
import type { EntityRow } from '../../../model/entities.js'
import type { RelationshipRow } from '../../../model/relationships.js'
import type { TextUnitRow } from '../../../model/text-units.js'
import { type ContextSection, type ContextTable, joinParts, renderRow } from './context-rows.js'
import { csvLine, sectionHead } from './csv.js'
import type { ReportContent } from './render.js'

/**
 * Tables whose human_readable_ids can be rewritten: those of graph contexts, and the text units of the
 * fast method's SOURCES contexts. A generation's maps hold the ones its contexts show; citations of
 * any other table (Reports, or Sources in a graph report) are left as written.
 */
const MAPPED = ['Entities', 'Relationships', 'Claims', 'Sources'] as const satisfies readonly ContextTable[]
type Mapped = (typeof MAPPED)[number]

/** human_readable_id ↔ stable identity of each mapped table of one index generation. */
export interface IdentityMaps {
  tables: ReadonlySet<Mapped>
  toIdentity: Partial<Record<Mapped, ReadonlyMap<number, string>>>
  toId: Partial<Record<Mapped, ReadonlyMap<string, number>>>
}

export function identityMaps(
  rows: Partial<Record<Mapped, ReadonlyArray<{ human_readable_id: number; identity: string }>>>,
): IdentityMaps {
  const toIdentity: IdentityMaps['toIdentity'] = {}
  const toId: IdentityMaps['toId'] = {}
  const tables = new Set<Mapped>()
  for (const table of MAPPED) {
    const list = rows[table]
    if (list === undefined) continue
    tables.add(table)
    toIdentity[table] = new Map(list.map((r) => [r.human_readable_id, r.identity]))
    toId[table] = new Map(list.map((r) => [r.identity, r.human_readable_id]))
  }
  return { tables, toIdentity, toId }
}

/** The identity maps of an index's tables: entities by title, relationships by source and target, claims by id. */
export function tableIdentityMaps(
  entities: ReadonlyArray<Pick<EntityRow, 'human_readable_id' | 'title'>>,
  relationships: ReadonlyArray<Pick<RelationshipRow, 'human_readable_id' | 'source' | 'target'>>,
  claims: ReadonlyArray<Pick<CovariateRow, 'human_readable_id' | 'id'>> | null,
): IdentityMaps {
  return identityMaps({
    Entities: entities.map((e) => ({ human_readable_id: e.human_readable_id, identity: e.title })),
    Relationships: relationships.map((r) => ({
      human_readable_id: r.human_readable_id,
      identity: `${r.source}\u0000${r.target}`,
    })),
    Claims: (claims ?? []).map((c) => ({ human_readable_id: c.human_readable_id, identity: c.id })),
  })
}

/** The identity maps of text-unit (SOURCES) contexts: each unit by its id, the SHA-512 of its text. */
export function textUnitIdentityMaps(
  units: ReadonlyArray<Pick<TextUnitRow, 'id' | 'human_readable_id'>>,
): IdentityMaps {
  return identityMaps({ Sources: units.map((u) => ({ human_readable_id: u.human_readable_id, identity: u.id })) })
}

/** Maps of several kinds of context at once, each table from the maps that have it. */
export function mergeMaps(...all: IdentityMaps[]): IdentityMaps {
  const merged = { tables: new Set<Mapped>(), toIdentity: {}, toId: {} } as {
    tables: Set<Mapped>
    toIdentity: IdentityMaps['toIdentity']
    toId: IdentityMaps['toId']
  }
  for (const maps of all) {
    for (const table of maps.tables) {
      merged.tables.add(table)
      merged.toIdentity[table] = maps.toIdentity[table]
      merged.toId[table] = maps.toId[table]
    }
  }
  return merged
}

/** Rewrites every id of a table in `tables` inside `[Data: …]` citations; undefined when one cannot be mapped. */
function mapCitations(
  text: string,
  tables: ReadonlySet<Mapped>,
  map: (table: Mapped, id: string) => string | undefined,
): string | undefined {
  let failed = false
  const out = text.replace(/\[Data:([^\]]*)\]/g, (_whole: string, body: string) => {
    const rewritten = body.replace(/(\b[A-Za-z]+\s*\()([^)]*)\)/g, (group: string, head: string, ids: string) => {
      const table = head.replace(/\s*\($/, '') as Mapped
      if (!tables.has(table)) return group
      const mapped = ids.replace(/@[0-9]+|\b[0-9]+\b/g, (id) => {
        const to = map(table, id)
        if (to === undefined) failed = true
        return to ?? id
      })
      return `${head}${mapped})`
    })
    return `[Data:${rewritten}]`
  })
  return failed ? undefined : out
}

/**
 * A context in canonical form, the ids it shows per table (the only ids a reusable report may cite),
 * and its data rows one by one: `key` names the row across generations (table and identity; a
 * substituted report is named by its text), `text` is its canonical text.
 */
export interface CanonicalContext {
  text: string
  shown: Record<Mapped, Set<number>>
  rows: Array<{ key: string; text: string }>
}

/** The cross-generation name of a row of a mapped table: its table and JSON-quoted identity. */
export function rowKey(section: Mapped, identity: string): string {
  return `${section}\u0000${JSON.stringify(identity)}`
}

/** Whether a CanonicalContext row key names a row of a mapped table (rather than a substituted report). */
export function isMappedRowKey(key: string): boolean {
  return MAPPED.some((table) => key.startsWith(`${table}\u0000`))
}

/** Every id of every table the maps hold, as `shown`: a report written before may cite any of them. */
export function everyId(maps: IdentityMaps): CanonicalContext['shown'] {
  const shown = Object.fromEntries(MAPPED.map((table) => [table, new Set<number>()])) as CanonicalContext['shown']
  for (const table of maps.tables) for (const id of maps.toIdentity[table]!.keys()) shown[table].add(id)
  return shown
}

const isMapped = (table: ContextTable, maps: IdentityMaps): table is Mapped =>
  (maps.tables as ReadonlySet<string>).has(table)

/**
 * The context with every human_readable_id replaced by its row's identity (rows of the mapped
 * tables, and citations inside substituted reports), degrees left out (they say how connected a
 * member is in the whole graph: a document elsewhere that mentions a hub entity changes them, and
 * so the degree-ranked row order, in every community the hub is in) and each section's rows sorted.
 * Undefined when a row's id is not its identity's in this generation's tables, or a substituted
 * report cites an id in no table.
 */
export function canonicalContext(
  sections: readonly ContextSection[],
  maps: IdentityMaps,
): CanonicalContext | undefined {
  const shown = Object.fromEntries(MAPPED.map((table) => [table, new Set<number>()])) as CanonicalContext['shown']
  const named: CanonicalContext['rows'] = []
  const toIdentity = (table: Mapped, id: string): string | undefined => {
    const identity = maps.toIdentity[table]?.get(Number(id))
    if (identity !== undefined) shown[table].add(Number(id))
    return identity === undefined ? undefined : JSON.stringify(identity)
  }
  const parts: string[] = []
  for (const section of sections) {
    const rows: string[] = []
    for (const row of section.rows) {
      let text: string | undefined
      let key: string
      if (isMapped(row.table, maps)) {
        if (maps.toIdentity[row.table]!.get(row.id) !== row.identity) return undefined
        shown[row.table].add(row.id)
        text = `${JSON.stringify(row.identity)},${csvLine(row.fields)}`
        key = rowKey(row.table, row.identity)
      } else {
        text = row.table === 'Reports' ? mapCitations(renderRow(row), maps.tables, toIdentity) : renderRow(row)
        if (text === undefined) return undefined
        key = `${section.label}\u0000${text}`
      }
      rows.push(text)
      named.push({ key, text })
    }
    if (rows.length > 0) parts.push(sectionHead(section.label, section.columns) + rows.sort().join(''))
  }
  return { text: joinParts(...parts), shown, rows: named }
}

/** The reuse key of a report: the canonical context plus everything else the prompt holds, and the model that answers it. */
export function canonicalKey(canonical: string, prompt: string, maxReportLength: number, model: string): string {
  return createHash('sha256')
    .update(JSON.stringify([prompt, maxReportLength, model, canonical]))
    .digest('hex')
}

/** Applies `map` to the citations of every text of a report; undefined when one cannot be mapped. */
function mapReport(
  report: ReportContent,
  tables: ReadonlySet<Mapped>,
  map: (table: Mapped, id: string) => string | undefined,
): ReportContent | undefined {
  const m = (text: string): string | undefined => mapCitations(text, tables, map)
  const title = m(report.title)
  const summary = m(report.summary)
  const ratingExplanation = m(report.rating_explanation)
  const findings = report.findings.map((f) => ({ summary: m(f.summary), explanation: m(f.explanation) }))
  if (title === undefined || summary === undefined || ratingExplanation === undefined) return undefined
  if (findings.some((f) => f.summary === undefined || f.explanation === undefined)) return undefined
  return {
    title,
    summary,
    findings: findings.map((f) => ({ summary: f.summary!, explanation: f.explanation! })),
    rating: report.rating,
    rating_explanation: ratingExplanation,
  }
}

/** A report with its cited ids replaced by `@k`, k indexing `refs` (the identities). */
export interface StoredReport {
  report: ReportContent
  refs: Array<[Mapped, string]>
}

/**
 * The stored form of a fresh report; undefined when it cites an id its context does not show (a
 * citation of the wrong table or a made-up id: renumbering it would change what it points at).
 */
export function encodeReport(
  report: ReportContent,
  maps: IdentityMaps,
  shown: CanonicalContext['shown'],
): StoredReport | undefined {
  const refs: Array<[Mapped, string]> = []
  const slots = new Map<string, number>()
  const encoded = mapReport(report, maps.tables, (table, id) => {
    if (id.startsWith('@') || !shown[table].has(Number(id))) return undefined
    const identity = maps.toIdentity[table]?.get(Number(id))
    if (identity === undefined) return undefined
    const slot = JSON.stringify([table, identity])
    let k = slots.get(slot)
    if (k === undefined) slots.set(slot, (k = refs.push([table, identity]) - 1))
    return `@${k}`
  })
  return encoded === undefined ? undefined : { report: encoded, refs }
}

/** The stored report with its citations numbered by this generation's ids; undefined when an identity is gone. */
export function decodeReport(stored: StoredReport, maps: IdentityMaps): ReportContent | undefined {
  return mapReport(stored.report, maps.tables, (table, id) => {
    const ref = id.startsWith('@') ? stored.refs[Number(id.slice(1))] : undefined
    if (ref === undefined || ref[0] !== table) return undefined
    const to = maps.toId[table]?.get(ref[1])
    return to === undefined ? undefined : String(to)
  })
}

/** A report text with its citations written as identities, to recognise a renumbered report; undefined when one cannot be mapped. */
export function identityText(text: string, maps: IdentityMaps): string | undefined {
  return mapCitations(text, maps.tables, (table, id) => {
    const identity = maps.toIdentity[table]?.get(Number(id))
    return identity === undefined ? undefined : JSON.stringify(identity)
  })
}

/**
 * The ids the `[Data: …]` citations of `texts` name, per mapped table: the only rows identityText
 * looks up in them (a generation's maps may be restricted to these).
 */
export function citedIds(texts: readonly string[]): Record<Mapped, Set<number>> {
  const cited = Object.fromEntries(MAPPED.map((table) => [table, new Set<number>()])) as Record<Mapped, Set<number>>
  const every: ReadonlySet<Mapped> = new Set(MAPPED)
  for (const text of texts)
    mapCitations(text, every, (table, id) => {
      cited[table].add(Number(id))
      return id
    })
  return cited
}
