/**
 * Hybrid search's sources, references and ranking rows under the seed design's field names and
 * reason values (its HTTP API: /query and /ranking/preview), served beside ours so that a client
 * written against the design reads them unchanged.
 *
 * Reasons: the design knows vector, relates (shared entities), cooccur (window / co-occurrence
 * edges), llm_rel (model-typed relations) and external. Ours are finer (vector, bm25, graph, edge);
 * `seed_reason` is the design's name for the same inclusion.
 */
import type { CitedReference } from './citations.js'
import type { HybridSource } from './context.js'
import type { ExplainRow } from './explain.js'

export type SeedReason = 'vector' | 'bm25' | 'relates' | 'cooccur' | 'llm_rel' | 'external'

/** Chunk-edge relations the design counts as window co-occurrence rather than a model's relation. */
const COOCCURRENCE = /^(sequence|co_?occurs?(_with)?)$/i
/** The shared-entity relation, the design's RELATES_TO. */
const SHARED_ENTITIES = /^(related_to|relates_to)$/i

function seedReason(reason: string, relType: string | null): SeedReason {
  if (reason === 'vector' || reason === 'external' || reason === 'bm25') return reason
  if (reason === 'graph') return 'relates'
  if (relType === null || SHARED_ENTITIES.test(relType)) return 'relates'
  return COOCCURRENCE.test(relType) ? 'cooccur' : 'llm_rel'
}

export type SeedSource = HybridSource & { rank: number; score: number | null; seed_reason: SeedReason }

/** `rank`: the source's place in the context (S1 is 1); `score`: its raw retrieval score (the design's `score`). */
export function seedSources(sources: readonly HybridSource[]): SeedSource[] {
  return sources.map((s) => ({
    ...s,
    rank: Number(s.label.slice(1)),
    score: s.score_raw,
    seed_reason: seedReason(s.reason, s.rel_type),
  }))
}

export type SeedReference = CitedReference & { rank: number; score: number | null; composite_score: number | null }

/** References with the design's fields: the cited source's rank, score and composite score. */
export function seedReferences(
  references: readonly CitedReference[],
  sources: readonly HybridSource[],
): SeedReference[] {
  const byLabel = new Map(sources.map((s) => [s.label, s]))
  return references.map((r) => {
    const source = byLabel.get(r.label)
    return {
      ...r,
      rank: Number(r.label.slice(1)),
      score: source?.score_raw ?? null,
      composite_score: source?.composite_score ?? null,
    }
  })
}

/** The ranking preview's `items`: one per ranked candidate, with the design's fields and reason names. */
export function seedItems(rows: readonly ExplainRow[]) {
  return rows.map((row) => ({
    id: row.id,
    rank: row.rank,
    reason: seedReason(row.reason, row.rel_type),
    score_raw: row.score_raw,
    base_norm: row.base_norm,
    bonus: row.bonus,
    composite_score: row.composite_score,
    final_score: row.final_score,
    rel_type: row.rel_type,
    rel_conf: row.rel_conf,
  }))
}
