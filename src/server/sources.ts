/**
 * Citations of an answer and what they point at, for MCP's `get_source` and the structured result
 * of `query`: `[Data: Sources (12, 13)]` (the tables of local, global, drift and basic search, by
 * human_readable_id or community number), `(Source 12)` of offline answers and hybrid's `[S1]`
 * labels (through the answer's references to full ids) become (kind, id) pairs, and each pair is
 * looked up in the index tables with a title a person knows it by.
 */
import {
  COMMUNITY_REPORTS,
  COVARIATES,
  DOCUMENTS,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
  type RowOf,
  type TableSchema,
} from '../model/index.js'
import { citedLabels } from '../query/hybrid/citations.js'
import type { TableStore } from '../storage/table-store.js'

export const SOURCE_KINDS = ['text_unit', 'document', 'entity', 'relationship', 'report', 'claim'] as const
export type SourceKind = (typeof SOURCE_KINDS)[number]

/** One citation of an answer: as written, and the `get_source` arguments that resolve it. */
export interface Citation {
  cited: string
  kind: SourceKind
  id: string
}

export interface ResolvedSource {
  kind: SourceKind
  id: string
  human_readable_id: number | null
  title: string
  /** For a text unit: the document it comes from. */
  document: { id: string; title: string } | null
  text: string
}

/** The table names of `[Data: …]` citations (singular or plural, any case). */
const DATA_TABLES: Record<string, SourceKind> = {
  source: 'text_unit',
  sources: 'text_unit',
  entity: 'entity',
  entities: 'entity',
  relationship: 'relationship',
  relationships: 'relationship',
  report: 'report',
  reports: 'report',
  claim: 'claim',
  claims: 'claim',
}

const DATA_BLOCK = /\[Data:([^\]]*)\]/g
const DATA_PART = /([A-Za-z]+)\s*\(([^)]*)\)/g
const OFFLINE_SOURCE = /\(Source (\d+)\)/g

/**
 * Every distinct citation of `answer`, in order of first appearance. `references` maps hybrid's
 * labels to full ids (labels of external passages, which the index does not hold, are left out).
 */
export function answerCitations(
  answer: string,
  references: ReadonlyArray<{ label: string; id: string; kind?: string }> = [],
): Citation[] {
  const found: Citation[] = []
  for (const block of answer.matchAll(DATA_BLOCK)) {
    for (const part of block[1]!.matchAll(DATA_PART)) {
      const kind = DATA_TABLES[part[1]!.toLowerCase()]
      if (kind === undefined) continue
      // "+more" and other words are not ids.
      for (const id of part[2]!.split(',').map((s) => s.trim())) {
        if (/^\d+$/.test(id)) found.push({ cited: `${part[1]} (${id})`, kind, id })
      }
    }
  }
  for (const m of answer.matchAll(OFFLINE_SOURCE)) found.push({ cited: `Source ${m[1]}`, kind: 'text_unit', id: m[1]! })
  const byLabel = new Map(references.map((r) => [r.label, r]))
  for (const label of citedLabels(answer)) {
    const ref = byLabel.get(label)
    const kind = ref?.kind === 'report' ? 'report' : ref?.kind === 'external' ? undefined : 'text_unit'
    if (ref !== undefined && kind !== undefined) found.push({ cited: label, kind, id: ref.id })
  }
  const distinct = new Map(found.map((c) => [`${c.kind}\u0000${c.id}\u0000${c.cited}`, c]))
  return [...distinct.values()]
}

/** `Source 12`, `Sources (12)`, `[Data: Sources (12)]` → `12`; anything else unchanged. */
function bareId(id: string): string {
  const m = /^\[?\s*(?:Data:\s*)?Sources?\s*\(?\s*(\d+)\s*\)?\s*\]?$/i.exec(id.trim())
  return m === null ? id.trim() : m[1]!
}

/** Looks sources up in one index (tables are read once per lookup object). */
export class SourceLookup {
  private readonly tables = new Map<string, Promise<unknown[]>>()

  constructor(private readonly store: TableStore) {}

  /** The source `id` names; with no kind, a text unit, else a document (by id, number or title). */
  async resolve(id: string, kind?: SourceKind): Promise<ResolvedSource | undefined> {
    const wanted = bareId(id)
    if (kind !== undefined) return this.find(kind, wanted)
    return (await this.find('text_unit', wanted)) ?? (await this.find('document', wanted))
  }

  private async find(kind: SourceKind, id: string): Promise<ResolvedSource | undefined> {
    switch (kind) {
      case 'text_unit':
        return this.textUnit(id)
      case 'document': {
        const d = matching(await this.read(DOCUMENTS), id, (r) => r.title === id)
        return d && source('document', d, d.title, d.text)
      }
      case 'entity': {
        const e = matching(await this.read(ENTITIES), id, (r) => r.title.toLowerCase() === id.toLowerCase())
        return e && source('entity', e, e.title, e.description || (await this.mentionedIn(e.text_unit_ids)))
      }
      case 'relationship': {
        const r = matching(await this.read(RELATIONSHIPS), id)
        return r && source('relationship', r, `${r.source} → ${r.target}`, r.description)
      }
      case 'report': {
        // Answers cite reports by community number.
        const reports = await this.read(COMMUNITY_REPORTS)
        const r = reports.find((x) => x.id === id || String(x.community) === id)
        return r && source('report', r, r.title, r.full_content)
      }
      case 'claim': {
        const c = matching(await this.read(COVARIATES), id)
        return c && source('claim', c, `${c.subject_id ?? ''} (${c.type ?? c.covariate_type})`, c.description ?? '')
      }
    }
  }

  private async textUnit(id: string): Promise<ResolvedSource | undefined> {
    const unit = matching(await this.read(TEXT_UNITS), id)
    if (unit === undefined) return undefined
    const doc = (await this.read(DOCUMENTS)).find((d) => d.id === unit.document_id)
    const title = doc?.title ?? unit.document_id
    return { ...source('text_unit', unit, title, unit.text), document: { id: unit.document_id, title } }
  }

  /** What stands for an entity without a description (`fast` indexes): the passage it first appears in. */
  private async mentionedIn(unitIds: readonly string[]): Promise<string> {
    const unit = (await this.read(TEXT_UNITS)).find((u) => u.id === unitIds[0])
    return unit === undefined
      ? ''
      : `(No description; first mentioned in text unit ${unit.human_readable_id}.)\n\n${unit.text}`
  }

  private read<S extends TableSchema>(schema: S): Promise<RowOf<S>[]> {
    let rows = this.tables.get(schema.name)
    if (rows === undefined) {
      // A table the index lacks (claims are optional) holds no source rather than failing the lookup.
      rows = this.store.has(schema.name).then((has) => (has ? this.store.read(schema) : []))
      this.tables.set(schema.name, rows)
    }
    return rows as Promise<RowOf<S>[]>
  }
}

type Identified = { id: string; human_readable_id: number }

/** The row whose id, or number (`human_readable_id`, as citations give it), or `also` matches. */
function matching<R extends Identified>(rows: readonly R[], id: string, also?: (row: R) => boolean): R | undefined {
  const byNumber = /^\d+$/.test(id) ? Number(id) : undefined
  return (
    rows.find((r) => r.id === id) ??
    rows.find((r) => r.human_readable_id === byNumber) ??
    (also === undefined ? undefined : rows.find(also))
  )
}

function source(kind: SourceKind, row: Identified, title: string, text: string): ResolvedSource {
  return { kind, id: row.id, human_readable_id: row.human_readable_id, title, document: null, text }
}
