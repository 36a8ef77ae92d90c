/**
 * Where graph search's walk starts (seed design 002): the nearest text units by vector similarity,
 * or, with graph_search.seed_keyword_weight > 0, the vector and BM25 rankings fused by weighted
 * reciprocal rank fusion (share w for keywords, 1 − w for vectors). graph_search.filters limits
 * the seeds, and the units the walk may reach, to text units of documents whose fields match.
 */
import type { Settings } from '../../config/index.js'
import { join } from 'node:path'
import { MissingIndexError } from '../../errors.js'
import { DOCUMENTS, type DocumentRow, type TextUnitRow } from '../../model/index.js'
import { fullTextSearch, prepareFullTextTable } from '../../storage/full-text.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { fullTextRows } from '../hybrid/full-text-refresh.js'
import type { SearchServices } from '../services.js'
import { embedOne } from '../usage.js'
import type { WalkSeed } from './graph-walk.js'

/** What keyword seeding needs beyond graph_search: the full-text table of hybrid search. */
export interface SeedSources {
  dbUri: string
  fullText: Pick<Settings['hybrid_search'], 'fts_table' | 'build_fts' | 'rrf_k'>
  documents: readonly DocumentRow[] | undefined
}

type Hit = { id: string; score: number }

export async function graphSeeds(
  text: string,
  units: readonly TextUnitRow[],
  settings: Settings['graph_search'],
  services: SearchServices,
  sources: SeedSources,
  warnings: string[],
): Promise<WalkSeed[]> {
  if (text === '') return []
  const allowed = allowedUnits(units, settings.filters, sources.documents)
  const k = settings.seed_top_k
  // With a filter the nearest units may all be filtered out: rank every unit, then keep the allowed.
  const depth = allowed === undefined ? k : units.length
  const vector = await embedOne(services.embedder, services.meter, text)
  const keep = (hits: Hit[]) => (allowed === undefined ? hits : hits.filter((h) => allowed.has(h.id)))
  const byVector = keep(await services.vectors.search('text_unit_text', vector, Math.max(1, depth)))
  const weight = settings.seed_keyword_weight
  if (weight === 0) return byVector.slice(0, k).map((h) => ({ id: h.id, similarity: h.score }))
  const byKeyword = keep(await keywordHits(text, units, Math.max(1, depth), sources, warnings))
  return fuseSeeds(byVector, byKeyword, weight, sources.fullText.rrf_k).slice(0, k)
}

/**
 * Weighted RRF: (1 − w) / (k + vector rank + 1) + w / (k + keyword rank + 1). The seed's similarity
 * (what the walk's vector_weight multiplies) is its fused score over the best one, in [0, 1].
 */
export function fuseSeeds(byVector: readonly Hit[], byKeyword: readonly Hit[], w: number, k: number): WalkSeed[] {
  const fused = new Map<string, number>()
  const add = (hits: readonly Hit[], share: number) =>
    hits.forEach((h, rank) => {
      if (share > 0) fused.set(h.id, (fused.get(h.id) ?? 0) + share / (k + rank + 1))
    })
  add(byVector, 1 - w)
  add(byKeyword, w)
  const ranked = [...fused].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
  const best = ranked[0]?.[1] ?? 0
  return ranked.map(([id, score]) => ({ id, similarity: best > 0 ? score / best : 0 }))
}

async function keywordHits(
  text: string,
  units: readonly TextUnitRow[],
  k: number,
  sources: SeedSources,
  warnings: string[],
): Promise<Hit[]> {
  const { fts_table: table, build_fts: build } = sources.fullText
  const state = await prepareFullTextTable(sources.dbUri, table, fullTextRows(units), build)
  if (state === 'missing' || state === 'stale') {
    warnings.push(
      `graph_search.seed_keyword_weight: the full-text table ${table} is ${state} and hybrid_search.build_fts is false, so the seeds come from vectors only`,
    )
    return []
  }
  return fullTextSearch(sources.dbUri, table, text, k)
}

/** Ids of the units whose document matches every filter; undefined when there is no filter. */
export function allowedUnits(
  units: readonly TextUnitRow[],
  filters: Readonly<Record<string, string>>,
  documents: readonly DocumentRow[] | undefined,
): Set<string> | undefined {
  const entries = Object.entries(filters)
  if (entries.length === 0) return undefined
  const matching = new Set(
    (documents ?? []).filter((d) => entries.every(([f, v]) => matches(field(d, f), v))).map((d) => d.id),
  )
  return new Set(units.filter((u) => u.document_id !== null && matching.has(u.document_id)).map((u) => u.id))
}

/** A document field: a column of the documents table, else a key of its metadata (raw_data). */
function field(d: DocumentRow, name: string): string | undefined {
  if (name === 'id' || name === 'title' || name === 'creation_date') return d[name] ?? undefined
  const raw = d.raw_data
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return undefined
  const value = (raw as Record<string, unknown>)[name]
  return value === undefined || value === null ? undefined : String(value)
}

function matches(value: string | undefined, pattern: string): boolean {
  if (value === undefined) return false
  return pattern.endsWith('*') ? value.startsWith(pattern.slice(0, -1)) : value === pattern
}

/** The documents table graph_search.filters are matched against. */
export async function loadDocuments(dataDir: string): Promise<DocumentRow[]> {
  const store = new ParquetTableStore(dataDir, 'js')
  if (!(await store.has(DOCUMENTS.name))) {
    throw new MissingIndexError(
      `graph_search.filters match document fields, but the index has no documents table (${join(dataDir, 'documents.parquet')})`,
    )
  }
  return store.read(DOCUMENTS)
}
