/**
 * `hybrid_search.scoring: weighted`, the Evolution RAG design's composite: a base of the vector
 * similarity scaled to [0, 1] plus bm25_weight × the BM25 score scaled to [0, 1] (each divided by
 * the best score of its list), and relation bonuses summed over relation types (the best link of
 * each type × its weight × confidence) instead of RRF's rank fusion and the single best edge.
 */
import type { ChunkEdgeRow } from '../../model/index.js'
import { edgeBonuses, type BonusWeights, type EdgeLink } from './bonuses.js'
import type { RankedList, Signal, SignalHit } from './fusion.js'

/** Each list's best raw score (0 for an empty list or one scoring nothing above 0). */
export function bestScores(lists: readonly RankedList[]): Partial<Record<Signal, number>> {
  const best: Partial<Record<Signal, number>> = {}
  for (const list of lists) best[list.signal] = Math.max(0, ...list.hits.map((h) => h.score))
  return best
}

/** norm(vector) + bm25Weight × norm(bm25); a list the candidate is not in adds 0. The graph list only brings candidates. */
export function weightedBase(
  signals: Partial<Record<Signal, SignalHit>>,
  best: Partial<Record<Signal, number>>,
  bm25Weight: number,
): number {
  const norm = (signal: Signal) => {
    const hit = signals[signal]
    const top = best[signal] ?? 0
    return hit === undefined || top <= 0 ? 0 : Math.max(0, hit.score) / top
  }
  return norm('vector') + bm25Weight * norm('bm25')
}

/**
 * Per linked passage, Σ over relation types of the best (weight × confidence) link of that type
 * from a seed; the link kept for display is the largest term (the first seed on a tie).
 */
export function summedEdgeBonuses(
  seeds: readonly string[],
  edges: readonly ChunkEdgeRow[],
  weights: BonusWeights,
): Map<string, EdgeLink> {
  const byRelation = new Map<string, ChunkEdgeRow[]>()
  for (const edge of edges) {
    const own = byRelation.get(edge.relation)
    if (own === undefined) byRelation.set(edge.relation, [edge])
    else own.push(edge)
  }
  const out = new Map<string, EdgeLink>()
  for (const relation of [...byRelation.keys()].sort()) {
    for (const [id, link] of edgeBonuses(seeds, byRelation.get(relation)!, weights)) {
      const current = out.get(id)
      if (current === undefined) out.set(id, link)
      else {
        const best = link.bonus > current.bonus ? link : current
        out.set(id, { ...best, bonus: current.bonus + link.bonus })
      }
    }
  }
  return out
}
