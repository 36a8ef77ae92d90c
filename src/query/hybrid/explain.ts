/**
 * The `--explain` ranking table: every candidate's signals (rank and raw score per list), fused
 * and normalised scores, bonuses, composite score, final rank, its context label and why it is there.
 */
import { seedScores, type HybridSource } from './context.js'
import { whyIncluded, type RankedCandidate } from './ranking.js'

export interface ExplainRow {
  rank: number
  id: string
  label: string | null
  vector: { rank: number; score: number } | null
  bm25: { rank: number; score: number } | null
  graph: { rank: number; hops: number; entity: string } | null
  fused: number
  fused_norm: number
  bonuses: { shared_entities: number; cooccurrence: number; edge: number; degree: number }
  composite: number
  reason: string
  why: string
  // The same scores under the seed system's names (its ranking preview API):
  /** Raw score of the signal named by `reason` (cosine, BM25, 1 / (1 + hops), or the edge bonus). */
  score_raw: number
  /** = fused_norm: the base score (weighted: normalised vector + bm25_weight × normalised BM25; rrf: the fused score ÷ the best). */
  base_norm: number
  /** Sum of the four bonuses. */
  bonus: number
  /** = composite: base_norm + bonus. */
  composite_score: number
  /** The score the final rank is by: the composite, or with the rerank stage (1 − weight) × composite + weight × rerank_norm. */
  final_score: number
  /** The rerank stage's raw score and its share of the best; null when it did not rerank this candidate. */
  rerank_score: number | null
  rerank_norm: number | null
  /** The chunk edge that brought the candidate in or earned its edge bonus, and its confidence; null without one. */
  rel_type: string | null
  rel_conf: number | null
}

export function explainRows(
  ranked: readonly RankedCandidate[],
  sources: readonly HybridSource[],
  unitNumber: (id: string) => string,
): ExplainRow[] {
  const labelById = new Map(sources.filter((s) => s.kind === 'text_unit').map((s) => [s.id, s.label]))
  const labelOf = (id: string) => labelById.get(id) ?? `unit ${unitNumber(id)}`
  return ranked.map((c) => ({
    rank: c.rank + 1,
    id: c.id,
    label: labelById.get(c.id) ?? null,
    vector: c.signals.vector ? { rank: c.signals.vector.rank + 1, score: c.signals.vector.score } : null,
    bm25: c.signals.bm25 ? { rank: c.signals.bm25.rank + 1, score: c.signals.bm25.score } : null,
    graph: c.signals.graph
      ? { rank: c.signals.graph.rank + 1, hops: c.graph?.hops ?? 0, entity: c.graph?.entity ?? '' }
      : null,
    fused: c.fused,
    fused_norm: c.fusedNorm,
    bonuses: { ...c.bonuses },
    composite: c.composite,
    reason: c.reason,
    why: whyIncluded(c, labelOf),
    ...seedScores(c),
    rerank_norm: c.rerank?.norm ?? null,
  }))
}

const f = (n: number, digits = 3) => (n === 0 ? '0' : n.toFixed(digits))

/** The table as markdown; `unitNumber` shows a text unit's human-readable id. */
export function renderExplain(rows: readonly ExplainRow[], unitNumber: (id: string) => string): string {
  const header = [
    'rank',
    'unit',
    'in context',
    'vector',
    'bm25',
    'graph',
    'rrf',
    'rrf norm',
    'shared',
    'co-occ',
    'edge',
    'degree',
    'composite',
    'why',
  ]
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`]
  for (const r of rows) {
    const cells = [
      String(r.rank),
      unitNumber(r.id),
      r.label ?? '—',
      r.vector ? `#${r.vector.rank} (${f(r.vector.score)})` : '—',
      r.bm25 ? `#${r.bm25.rank} (${f(r.bm25.score)})` : '—',
      r.graph ? `#${r.graph.rank} (${r.graph.hops} hop${r.graph.hops === 1 ? '' : 's'})` : '—',
      f(r.fused, 4),
      f(r.fused_norm),
      f(r.bonuses.shared_entities),
      f(r.bonuses.cooccurrence),
      f(r.bonuses.edge),
      f(r.bonuses.degree),
      f(r.composite),
      r.why.replaceAll('|', '/'),
    ]
    lines.push(`| ${cells.join(' | ')} |`)
  }
  return `${lines.join('\n')}\n`
}
