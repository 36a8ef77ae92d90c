/**
 * Reciprocal Rank Fusion of the ranked candidate lists (vector, BM25, graph path) and the final
 * composite score: `composite = fused / max fused + Σ bonuses`, ties broken by id so the ranking
 * is reproducible.
 */

const SIGNALS = ['vector', 'bm25', 'graph'] as const
export type Signal = (typeof SIGNALS)[number]

/** One ranked list: ids best first, with each id's raw score in that list. */
export interface RankedList {
  signal: Signal
  hits: ReadonlyArray<{ id: string; score: number }>
}

/** Where a candidate stood in one list: `rank` 0 is the first. */
export interface SignalHit {
  rank: number
  score: number
}

export interface FusedCandidate {
  id: string
  signals: Partial<Record<Signal, SignalHit>>
  /** Σ 1 / (k + rank + 1) over the lists that hold the candidate. */
  fused: number
}

/** RRF with constant k: ranks 0 and 1 in two lists give 1/61 + 1/62 at k = 60. Sorted by fused score, then id. */
export function reciprocalRankFusion(lists: readonly RankedList[], k: number): FusedCandidate[] {
  const byId = new Map<string, FusedCandidate>()
  for (const list of lists) {
    list.hits.forEach((hit, rank) => {
      let c = byId.get(hit.id)
      if (c === undefined) byId.set(hit.id, (c = { id: hit.id, signals: {}, fused: 0 }))
      // A list naming an id twice counts its best rank only.
      if (c.signals[list.signal] !== undefined) return
      c.signals[list.signal] = { rank, score: hit.score }
      c.fused += 1 / (k + rank + 1)
    })
  }
  return [...byId.values()].sort(byScoreThenId((c) => c.fused))
}

/** Comparator: higher score first, then id ascending. */
export function byScoreThenId<T extends { id: string }>(score: (item: T) => number): (a: T, b: T) => number {
  return (a, b) => score(b) - score(a) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)
}

/** Fused scores scaled to [0, 1] by the best one (all zero when nothing was fused). */
export function normaliseFused(candidates: ReadonlyArray<{ fused: number }>): number[] {
  const max = Math.max(0, ...candidates.map((c) => c.fused))
  return candidates.map((c) => (max > 0 ? c.fused / max : 0))
}

/**
 * The signal a candidate is "in" for: its best rank across lists (vector before BM25 before graph
 * on a tie); undefined for a candidate no list holds (it came in through a chunk edge).
 */
export function leadingSignal(signals: Partial<Record<Signal, SignalHit>>): Signal | undefined {
  let best: Signal | undefined
  for (const signal of SIGNALS) {
    const hit = signals[signal]
    if (hit !== undefined && (best === undefined || hit.rank < signals[best]!.rank)) best = signal
  }
  return best
}
