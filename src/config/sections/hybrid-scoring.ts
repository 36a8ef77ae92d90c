/**
 * Keys of hybrid_search for the Evolution RAG design's composite score (scoring: weighted) and its
 * rerank stage blend (the rerank endpoint itself is the top-level `rerank` section).
 */
import { num, oneOf } from '../fields.js'

export const hybridScoring = {
  scoring: oneOf(
    ['rrf', 'weighted'],
    'weighted',
    'How the three rankings are combined before the bonuses: weighted (the Evolution RAG design: vector similarity ÷ the best + bm25_weight × BM25 score ÷ the best, edge bonuses summed over relation types; measured better on our eval packs) or rrf (Reciprocal Rank Fusion ÷ the best fused score, the single best edge). See docs/hybrid-search.md.',
  ),
  bm25_weight: num(0.4, 'Weight of the normalised BM25 score in scoring: weighted (the design default).', {
    min: 0,
    max: 1000,
  }),
}
