/**
 * From the three ranked lists to the final ranking: RRF, the normalised fused score, the chunk
 * edges of the top passages (which may add passages no list held), the entity bonuses, and
 * `composite = fused_norm + Σ bonuses`, sorted best first.
 */
import type { ChunkEdgeRow } from '../../model/index.js'
import { edgeBonuses, entityBonuses, totalBonus, type BonusWeights, type Bonuses, type EdgeLink } from './bonuses.js'
import {
  byScoreThenId,
  leadingSignal,
  normaliseFused,
  reciprocalRankFusion,
  type FusedCandidate,
  type RankedList,
  type Signal,
  type SignalHit,
} from './fusion.js'
import { bestScores, summedEdgeBonuses, weightedBase } from './weighted.js'

export type Reason = Signal | 'edge'

export interface RankedCandidate {
  id: string
  signals: Partial<Record<Signal, SignalHit>>
  /** Extra detail of the graph signal: hops from a question entity and the entity that led here. */
  graph?: { hops: number; entity: string }
  fused: number
  fusedNorm: number
  bonuses: Bonuses
  edge: EdgeLink | undefined
  composite: number
  /** The rerank stage's score (raw, and ÷ the best of the reranked), when it ran on this candidate. */
  rerank?: { score: number; norm: number }
  /** The score of the final rank when the rerank stage ran (else the composite). */
  final?: number
  /** 0-based final rank. */
  rank: number
  reason: Reason
}

export interface RankingInput {
  lists: readonly RankedList[]
  graphDetail: ReadonlyMap<string, { hops: number; entity: string }>
  rrfK: number
  edgeSeedK: number
  edges: readonly ChunkEdgeRow[]
  /** Entity ids named by each text unit (text_units.entity_ids). */
  unitEntities: ReadonlyMap<string, ReadonlySet<string>>
  /** Ids of the entities matched to the question. */
  questionEntities: ReadonlySet<string>
  degreeShare: ReadonlyMap<string, number>
  weights: BonusWeights
  /** Only ids of the index's text units can become candidates (edges may name others). */
  knownUnits: ReadonlySet<string>
  /** hybrid_search.scoring: RRF (default) or the design's weighted sum (see weighted.ts). */
  scoring?: { mode: 'rrf' } | { mode: 'weighted'; bm25Weight: number }
}

/** Each candidate's base score (`fusedNorm`: RRF ÷ best, or the weighted base) and the edge links from the top `edgeSeedK` by it. */
function baseScores(input: RankingInput, fused: readonly FusedCandidate[]) {
  const scoring = input.scoring
  if (scoring?.mode !== 'weighted') {
    const norms = normaliseFused(fused)
    const seeds = fused.slice(0, input.edgeSeedK).map((c) => c.id)
    return { norms, links: edgeBonuses(seeds, input.edges, input.weights) }
  }
  const best = bestScores(input.lists)
  const norms = fused.map((c) => weightedBase(c.signals, best, scoring.bm25Weight))
  const order = fused.map((c, i) => ({ id: c.id, score: norms[i]! })).sort(byScoreThenId((c) => c.score))
  const seeds = order.slice(0, input.edgeSeedK).map((c) => c.id)
  return { norms, links: summedEdgeBonuses(seeds, input.edges, input.weights) }
}

export function rankCandidates(input: RankingInput): RankedCandidate[] {
  const fused = reciprocalRankFusion(input.lists, input.rrfK)
  const { norms, links } = baseScores(input, fused)
  const rows = fused.map((c, i) => ({ id: c.id, signals: c.signals, fused: c.fused, fusedNorm: norms[i]! }))
  const held = new Set(rows.map((r) => r.id))
  for (const id of [...links.keys()].sort()) {
    if (!held.has(id) && input.knownUnits.has(id)) rows.push({ id, signals: {}, fused: 0, fusedNorm: 0 })
  }
  const ranked = rows.map((row): RankedCandidate => {
    const edge = links.get(row.id)
    const entity = entityBonuses(
      input.unitEntities.get(row.id) ?? new Set(),
      input.questionEntities,
      input.degreeShare,
      input.weights,
    )
    const bonuses: Bonuses = { ...entity, edge: edge?.bonus ?? 0 }
    const graph = input.graphDetail.get(row.id)
    return {
      ...row,
      ...(row.signals.graph !== undefined && graph !== undefined ? { graph } : {}),
      bonuses,
      edge: edge !== undefined && edge.bonus > 0 ? edge : undefined,
      composite: row.fusedNorm + totalBonus(bonuses),
      rank: 0,
      reason: leadingSignal(row.signals) ?? 'edge',
    }
  })
  ranked.sort(byScoreThenId((c) => c.composite))
  ranked.forEach((c, i) => (c.rank = i))
  return ranked
}

/** Why a candidate is in the ranking, in words: its lists and ranks, the edge, the entity bonuses. */
export function whyIncluded(c: RankedCandidate, labelOf: (id: string) => string): string {
  const parts: string[] = []
  if (c.signals.vector) parts.push(`vector #${c.signals.vector.rank + 1}`)
  if (c.signals.bm25) parts.push(`bm25 #${c.signals.bm25.rank + 1}`)
  if (c.signals.graph)
    parts.push(
      `graph #${c.signals.graph.rank + 1} (${c.graph?.hops ?? '?'} hop${c.graph?.hops === 1 ? '' : 's'} from ${c.graph?.entity ?? '?'})`,
    )
  if (c.edge) parts.push(`edge ${c.edge.relation} from ${labelOf(c.edge.from)} (conf ${c.edge.confidence.toFixed(2)})`)
  if (c.bonuses.shared_entities > 0) parts.push('names question entities')
  if (c.rerank) parts.push(`rerank ${c.rerank.score.toFixed(3)}`)
  return parts.join(', ')
}
