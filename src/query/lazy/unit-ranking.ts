/**
 * The ranked text units of one sub-question: vector similarity over text_unit_text, fused with BM25
 * over hybrid search's full-text table when that table exists and is current (lazy search never
 * builds it: that is hybrid search's choice, `hybrid_search.build_fts`).
 */
import type { TextUnitRow } from '../../model/index.js'
import { fullTextSearch, prepareFullTextTable } from '../../storage/full-text.js'
import { fullTextRows } from '../hybrid/full-text-refresh.js'
import type { RankedList } from '../hybrid/fusion.js'
import type { SearchServices } from '../services.js'
import { embedOne } from '../usage.js'
import { rankUnits, type LazyCommunity } from './ranking.js'

/** The reciprocal-rank-fusion constant hybrid search uses by default. */
const RRF_K = 60

/** The full-text table to search, or undefined when it is missing or stale. */
export async function currentFullTextTable(
  dbUri: string,
  table: string,
  units: ReadonlyArray<Pick<TextUnitRow, 'id' | 'text'>>,
): Promise<string | undefined> {
  const state = await prepareFullTextTable(dbUri, table, fullTextRows(units), false)
  return state === 'ready' ? table : undefined
}

/** Unit id → rank (0 = best) for `question`. */
export async function rankUnitsFor(
  question: string,
  k: number,
  services: SearchServices,
  fullText: { dbUri: string; table: string } | undefined,
): Promise<Map<string, number>> {
  const vector = await embedOne(services.embedder, services.meter, question)
  const hits = await services.vectors.search('text_unit_text', vector, k)
  const lists: RankedList[] = [{ signal: 'vector', hits: hits.map((h) => ({ id: h.id, score: h.score })) }]
  if (fullText !== undefined)
    lists.push({ signal: 'bm25', hits: await fullTextSearch(fullText.dbUri, fullText.table, question, k) })
  return rankUnits(lists, RRF_K)
}

/**
 * An index without communities (its graph is empty): the ranked units in groups of `size`, each a
 * community without sub-communities, so the walk and its stop rule still apply.
 */
export function rankedUnitGroups(unitRank: ReadonlyMap<string, number>, size: number): LazyCommunity[] {
  const ids = [...unitRank.keys()].sort((a, b) => unitRank.get(a)! - unitRank.get(b)!)
  const groups: LazyCommunity[] = []
  for (let i = 0; i < ids.length; i += size)
    groups.push({
      community: groups.length,
      level: 0,
      title: `ranked units ${i + 1}+`,
      children: [],
      unitIds: ids.slice(i, i + size),
    })
  return groups
}
