/**
 * Report reuse that survives renumbering: human_readable_ids are row positions, so adding or removing
 * one entity shifts the ids (and so the prompt) of every community after it. A context is reduced to
 * a canonical form where each id is replaced by the row's stable identity (entity title, relationship
 * source/target, claim id), degrees are dropped and rows sorted (see withoutDegree); a report whose
 * canonical context equals an earlier one is that earlier
 * report with its `[Data: …]` citations renumbered through identity → new id. Anything that cannot be
 * mapped (an id cited that is in no table) makes the context or report ineligible, never guessed.
 */
import { createHash } from 'node:crypto'
import type { CovariateRow } from '../../../model/covariates.js'
import type { EntityRow } from '../../../model/entities.js'
import type { RelationshipRow } from '../../../model/relationships.js'
import type { TextUnitRow } from '../../../model/text-units.js'
import type { ReportContent } from './render.js'

/**
 * Tables whose human_readable_ids can be rewritten: those of graph contexts, and the text units of the
 * fast method's SOURCES contexts. A generation's maps hold the ones its contexts show; citations of
 * any other table (Reports, or Sources in a graph report) are left as written.
 */
const MAPPED = ['Entities', 'Relationships', 'Claims', 'Sources'] as const
type Mapped = (typeof MAPPED)[number]
/** Context section names that are not the citation's table name. */
const SECTION_TABLE: Readonly<Record<string, Mapped>> = { SOURCES: 'Sources' }

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
  entities: readonly EntityRow[],
  relationships: readonly RelationshipRow[],
  claims: readonly CovariateRow[] | null,
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

/** Splits CSV text into records at line ends outside quotes (each record keeps its `\n`). */
function records(text: string): string[] {
  const out: string[] = []
  let start = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"') quoted = !quoted
    else if (c === '\n' && !quoted) {
      out.push(text.slice(start, i + 1))
      start = i + 1
    }
  }
  if (start < text.length) out.push(text.slice(start))
  return out
}

/**
 * A context in canonical form, the ids it shows per table (the only ids a reusable report may cite),
 * and its data rows one by one: `key` names the row across generations (section and identity; a row
 * of another section, a substituted report, is named by its text), `text` is its canonical text.
 */
export interface CanonicalContext {
  text: string
  shown: Record<Mapped, Set<number>>
  rows: Array<{ key: string; text: string }>
}

/** The cross-generation name of a row of a mapped table: its section and JSON-quoted identity. */
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

/**
 * The context with every human_readable_id replaced by its identity (data rows of the Entities,
 * Relationships and Claims sections, and citations inside substituted Reports); undefined when an
 * id is in no table.
 */
export function canonicalContext(text: string, maps: IdentityMaps): CanonicalContext | undefined {
  const shown: Record<Mapped, Set<number>> = {
    Entities: new Set(),
    Relationships: new Set(),
    Claims: new Set(),
    Sources: new Set(),
  }
  const named: CanonicalContext['rows'] = []
  const toIdentity = (table: Mapped, id: string): string | undefined => {
    const identity = maps.toIdentity[table]?.get(Number(id))
    if (identity !== undefined) shown[table].add(Number(id))
    return identity === undefined ? undefined : JSON.stringify(identity)
  }
  let section = ''
  let header = false
  const out: string[] = []
  // A section's data rows, sorted when it ends: the context orders them by degree (see withoutDegree).
  let rows: string[] = []
  const flush = () => {
    out.push(...rows.sort())
    rows = []
  }
  for (const record of records(text)) {
    const head = /^-----([A-Za-z]+)-----\n$/.exec(record)
    if (head !== null) {
      flush()
      section = head[1]!
      header = true
      out.push(record)
      continue
    }
    if (header || record.trim() === '') {
      flush()
      header = false
      out.push(record)
      continue
    }
    let canonical: string | undefined = record
    let key: string | undefined
    const row = /^([0-9]+),/.exec(record)
    const table = (SECTION_TABLE[section] ?? section) as Mapped
    if (maps.tables.has(table)) {
      const identity = row === null ? undefined : maps.toIdentity[table]!.get(Number(row[1]))
      if (identity === undefined) return undefined
      shown[table].add(Number(row![1]))
      canonical = JSON.stringify(identity) + withoutDegree(table, record.slice(row![1]!.length))
      key = rowKey(table, identity)
    } else if (section === 'Reports') canonical = mapCitations(record, maps.tables, toIdentity)
    if (canonical === undefined) return undefined
    rows.push(canonical)
    named.push({ key: key ?? `${section}\u0000${canonical}`, text: canonical })
  }
  flush()
  return { text: out.join(''), shown, rows: named }
}

/**
 * Entities end with `degree`, relationships with `combined_degree` and text units (SOURCES) with
 * `entity_degree`, the sum of their members' degrees: how connected a member is in the whole graph,
 * not what the community holds. A document elsewhere that mentions a hub entity changes those
 * numbers (and so the degree-ranked row order) in every community the hub is in; the report of a
 * community whose rows are otherwise the same is still that community's report.
 */
function withoutDegree(table: Mapped, rest: string): string {
  return table === 'Claims' ? rest : rest.replace(/,-?[0-9.]+(e[-+]?[0-9]+)?\n?$/, '\n')
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
