/**
 * The three ranked lists of hybrid search, each allowed to fail alone: vector similarity
 * (text_unit_text), BM25 over our LanceDB full-text table, and the graph path from the question's
 * entities. A failed signal becomes a warning and an empty list, never a failed search.
 */
import type { Settings } from '../../config/index.js'
import type { EntityRow } from '../../model/index.js'
import { fullTextSearch, prepareFullTextTable } from '../../storage/full-text.js'
import type { SearchServices } from '../services.js'
import { embedOne } from '../usage.js'
import type { HybridWarning } from './citations.js'
import { buildNameIndex, matchEntities } from './entity-match.js'
import { fullTextRows } from './full-text-refresh.js'
import type { RankedList } from './fusion.js'
import { graphScore, rankGraphUnits, walkGraph, type ReachedEntity } from './graph-path.js'
import { questionEntities } from './question-entities.js'
import type { HybridTables } from './tables.js'

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The question's vector, or undefined (with an `embedding_failed` warning) when it cannot be had. */
export async function questionVector(
  question: string,
  services: SearchServices,
  warnings: HybridWarning[],
): Promise<number[] | undefined> {
  try {
    return await embedOne(services.embedder, services.meter, question)
  } catch (error) {
    warnings.push({
      type: 'embedding_failed',
      detail: `the question could not be embedded, so vector similarity is left out: ${message(error)}`,
    })
    return undefined
  }
}

export async function vectorList(
  vector: number[] | undefined,
  k: number,
  services: SearchServices,
  warnings: HybridWarning[],
): Promise<RankedList> {
  if (vector === undefined) return { signal: 'vector', hits: [] }
  try {
    const hits = await services.vectors.search('text_unit_text', vector, k)
    return { signal: 'vector', hits: hits.map((h) => ({ id: h.id, score: h.score })) }
  } catch (error) {
    warnings.push({
      type: 'embedding_failed',
      detail: `vector search over text_unit_text failed, so vector similarity is left out: ${message(error)}`,
    })
    return { signal: 'vector', hits: [] }
  }
}

export async function bm25List(
  question: string,
  tables: HybridTables,
  dbUri: string,
  s: Settings['hybrid_search'],
  warnings: HybridWarning[],
): Promise<RankedList> {
  const empty: RankedList = { signal: 'bm25', hits: [] }
  try {
    const state = await prepareFullTextTable(dbUri, s.fts_table, fullTextRows(tables.text_units), s.build_fts)
    if (state === 'missing' || state === 'stale') {
      warnings.push({
        type: 'bm25_unavailable',
        detail: `the full-text table ${s.fts_table} is ${state} and hybrid_search.build_fts is false, so BM25 is left out`,
      })
      return empty
    }
    return { signal: 'bm25', hits: await fullTextSearch(dbUri, s.fts_table, question, s.bm25_top_k) }
  } catch (error) {
    warnings.push({ type: 'bm25_unavailable', detail: `BM25 is left out: ${message(error)}` })
    return empty
  }
}

export interface GraphSignal {
  list: RankedList
  detail: Map<string, { hops: number; entity: string }>
  matched: EntityRow[]
  reached: ReachedEntity[]
}

/** Question entities → graph entities (names, aliases, then nearest entity_description vectors) → walked paths → ranked units. */
export async function graphSignal(
  question: string,
  tables: HybridTables,
  settings: Settings,
  services: SearchServices,
  warnings: HybridWarning[],
  vector: number[] | undefined,
): Promise<GraphSignal> {
  const s = settings.hybrid_search
  const found = await questionEntities(
    question,
    services.chat,
    s.query_entities,
    settings.extract_graph_nlp.text_analyzer,
  )
  if (found.failure !== undefined)
    warnings.push({ type: 'entity_extraction_failed', detail: `${found.failure}; used noun phrases instead` })
  const match = matchEntities(found.names, question, buildNameIndex(tables.entities, tables.entity_aliases))
  if (vector !== undefined && match.unmatched.length > 0)
    match.matched.push(
      ...(await nearestEntities(match.unmatched, tables.entities, match.matched, s.entity_min_similarity, services)),
    )
  if (vector !== undefined && s.relationship_top_k > 0)
    match.matched.push(...(await relationshipEnds(vector, tables, match.matched, s, services)))
  if (match.matched.length === 0) {
    const names = found.names.length === 0 ? 'none found' : found.names.join(', ')
    warnings.push({
      type: 'no_entities_matched',
      detail: `no graph entity matches the question's entities (${names}), so the graph path is left out`,
    })
  }
  const reached = walkGraph(match.matched, tables.entities, tables.relationships, s.max_hops)
  const hits = rankGraphUnits(reached, s.graph_top_k)
  return {
    list: { signal: 'graph', hits: hits.map((h) => ({ id: h.id, score: graphScore(h) })) },
    detail: new Map(hits.map((h) => [h.id, { hops: h.hops, entity: h.entity }])),
    matched: match.matched,
    reached,
  }
}

/** Endpoints of the relationships whose description is nearest the question (relationship_description, when indexed). */
async function relationshipEnds(
  vector: number[],
  tables: HybridTables,
  taken: readonly EntityRow[],
  s: Settings['hybrid_search'],
  services: SearchServices,
): Promise<EntityRow[]> {
  const out: EntityRow[] = []
  try {
    if (!(await services.vectors.hasTable('relationship_description'))) return out
    const byId = new Map(tables.relationships.map((r) => [r.id, r]))
    const byTitle = new Map(tables.entities.map((e) => [e.title, e]))
    for (const hit of await services.vectors.search('relationship_description', vector, s.relationship_top_k)) {
      const rel = hit.score < s.entity_min_similarity ? undefined : byId.get(hit.id)
      for (const title of rel === undefined ? [] : [rel.source, rel.target]) {
        const entity = byTitle.get(title)
        if (entity !== undefined && !taken.includes(entity) && !out.includes(entity)) out.push(entity)
      }
    }
  } catch (error) {
    services.logger.warn(`hybrid search: searching relationship_description failed: ${message(error)}`)
  }
  return out
}

/** The nearest entity_description vector of each unmatched name, when similar enough; failures only log. */
async function nearestEntities(
  names: readonly string[],
  entities: readonly EntityRow[],
  taken: readonly EntityRow[],
  min: number,
  services: SearchServices,
): Promise<EntityRow[]> {
  const byId = new Map(entities.map((e) => [e.id, e]))
  const out: EntityRow[] = []
  try {
    if (!(await services.vectors.hasTable('entity_description'))) return out
    const vectors = await services.embedder.embed([...names])
    services.meter.recordEmbedding(names.reduce((n, name) => n + services.embedder.countTokens(name), 0))
    for (const vector of vectors) {
      const [hit] = await services.vectors.search('entity_description', vector, 1)
      const entity = hit === undefined || hit.score < min ? undefined : byId.get(hit.id)
      if (entity !== undefined && !taken.includes(entity) && !out.includes(entity)) out.push(entity)
    }
  } catch (error) {
    services.logger.warn(
      `hybrid search: matching question entities by entity_description vectors failed: ${message(error)}`,
    )
  }
  return out
}
