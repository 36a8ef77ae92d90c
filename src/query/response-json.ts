/**
 * The one JSON shape of an answer, for every search method: what `graphrag query --json` prints and
 * what `POST /query` returns. docs/schemas/query-response.schema.json describes it; tests validate
 * every method's output against that schema.
 *
 *   method, response, answer, context, usage, warnings   every method (answer = response: the seed design's name)
 *   sources, references, entities                 hybrid search (its cited sources)
 *   ranking, degraded                             hybrid search with --explain
 *   lazy                                          lazy search (tests, path, claims, citations, usage per model)
 */
import { isDegraded } from './hybrid/citations.js'
import { seedReferences, seedSources, type SeedReference, type SeedSource } from './hybrid/seed-fields.js'
import type { SearchMethod, SearchResult } from './index.js'

/** A problem the search worked around or found in the answer; `type` is stable, `detail` is for people. */
export interface QueryWarning {
  type: string
  detail: string
}

type HybridReport = NonNullable<SearchResult['hybrid']>

export interface QueryResponseJson {
  method: SearchMethod
  response: string
  /** = response, under the seed design's name for it (docs/seeds.md). */
  answer: string
  context: SearchResult['context']
  usage: SearchResult['usage']
  warnings: QueryWarning[]
  sources?: SeedSource[]
  references?: SeedReference[]
  entities?: HybridReport['entities']
  ranking?: HybridReport['ranking']
  /** With ranking: a signal (vector, BM25, graph) was unavailable, as the seed API's ranking preview says. */
  degraded?: boolean
  /** Lazy search: what was tested and found relevant along the community path, claims, citations, usage per model. */
  lazy?: SearchResult['lazy']
}

/** Warnings of the non-hybrid searches are sentences; they are typed `search` in the JSON. */
const SEARCH_WARNING = 'search'

export function queryResponseJson(result: SearchResult, options: { explain?: boolean } = {}): QueryResponseJson {
  const warnings: QueryWarning[] = result.warnings.map((detail) => ({ type: SEARCH_WARNING, detail }))
  const base = {
    method: result.method,
    response: result.response,
    answer: result.response,
    context: result.context,
    usage: result.usage,
  }
  const h = result.hybrid
  if (result.lazy !== undefined) return { ...base, warnings, lazy: result.lazy }
  if (h === undefined) return { ...base, warnings }
  return {
    ...base,
    warnings: [...warnings, ...h.warnings],
    sources: seedSources(h.sources),
    references: seedReferences(h.references, h.sources),
    entities: h.entities,
    ...(options.explain === true ? { ranking: h.ranking, degraded: isDegraded(h.warnings) } : {}),
  }
}
