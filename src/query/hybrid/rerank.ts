/**
 * The rerank stage of hybrid search: the top `topN` candidates by composite score are scored
 * against the question (a reranker endpoint, or offline by lexical overlap), and
 * `final = (1 − weight) × composite + weight × rerank ÷ best rerank`; candidates past topN keep
 * `(1 − weight) × composite`, so they stay below. A failing reranker leaves the order as it was,
 * with a `rerank_failed` warning.
 */
import { LlmError } from '../../errors.js'
import type { Settings } from '../../config/index.js'
import { createReranker, type Reranker } from '../../llm/rerank.js'
import type { HybridWarning } from './citations.js'
import { byScoreThenId } from './fusion.js'
import type { RankedCandidate } from './ranking.js'

export interface RerankStage {
  /** 'lexical' = the offline fallback (no endpoint configured). */
  reranker: Reranker | 'lexical'
  topN: number
  weight: number
}

const WORD = /[\p{L}\p{N}]+/gu

/** The share of the question's distinct words (two letters or more, any case) the passage contains. */
export function lexicalScore(question: string, passage: string): number {
  const words = (text: string) => new Set((text.toLowerCase().match(WORD) ?? []).filter((w) => w.length >= 2))
  const asked = words(question)
  if (asked.size === 0) return 0
  const has = words(passage)
  return [...asked].filter((w) => has.has(w)).length / asked.size
}

export async function rerankCandidates(
  ranked: readonly RankedCandidate[],
  textOf: (id: string) => string,
  question: string,
  stage: RerankStage,
  warnings: HybridWarning[],
  signal?: AbortSignal,
): Promise<RankedCandidate[]> {
  const top = ranked.slice(0, stage.topN)
  const texts = top.map((c) => textOf(c.id))
  let scores: number[]
  if (stage.reranker === 'lexical') scores = texts.map((t) => lexicalScore(question, t))
  else {
    try {
      scores = await stage.reranker(question, texts, signal)
    } catch (error) {
      if (!(error instanceof LlmError)) throw error
      warnings.push({ type: 'rerank_failed', detail: `${error.message}; the composite ranking is kept` })
      return [...ranked]
    }
  }
  const best = Math.max(0, ...scores)
  const out = ranked.map((c, i): RankedCandidate => {
    const blended = (1 - stage.weight) * c.composite
    if (i >= top.length) return { ...c, final: blended }
    const norm = best > 0 ? Math.max(0, scores[i]!) / best : 0
    return { ...c, rerank: { score: scores[i]!, norm }, final: blended + stage.weight * norm }
  })
  out.sort(byScoreThenId((c) => c.final ?? c.composite))
  out.forEach((c, i) => (c.rank = i))
  return out
}

/** The stage the `rerank` settings describe; undefined when it is off. */
export function rerankStage(s: Settings['rerank']): RerankStage | undefined {
  if (!s.enabled) return undefined
  const reranker =
    s.api_base === null
      ? ('lexical' as const)
      : createReranker({
          apiBase: s.api_base,
          protocol: s.protocol,
          model: s.model ?? undefined,
          apiKey: s.api_key ?? undefined,
          timeoutSeconds: s.request_timeout,
          maxRetries: s.max_retries,
        })
  return { reranker, topN: s.top_n, weight: s.weight }
}
