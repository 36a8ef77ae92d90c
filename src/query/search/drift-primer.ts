/**
 * DRIFT, first phase: a hypothetical answer (HyDE) is embedded and compared with every report's
 * full_content vector; the most similar reports are split into folds and each fold primes an
 * intermediate answer with follow-up questions. The HyDE template is the highest-ranked report
 * (the reference picks one at random), so the same question gives the same primer.
 */
import { cosineSimilarity } from '../../llm/cosine.js'
import { QueryError } from '../../errors.js'
import { formatPrompt } from '../../prompts/prompt-template.js'
import { mapBounded } from '../../storage/bounded-map.js'
import { fillRows } from '../context/table-format.js'
import type { SearchServices } from '../services.js'
import { embedOne } from '../usage.js'
import { replyObject, toNumber } from './json-reply.js'
import { HYDE_PROMPT, PRIMER_PROMPT } from './prompts.js'
import { isModelFailure } from './model-failure.js'
import type { IndexReport } from '../load-index.js'

/** A follow-up question with the score of the primer fold that proposed it. */
export interface PrimerFollowUp {
  query: string
  score: number
}

export interface PrimerResult {
  answer: string
  /** In fold order; each fold scores its own answer, so its questions carry that score. */
  followUps: PrimerFollowUp[]
  /** The reports the primer read, most similar first. */
  reports: { report: IndexReport; similarity: number }[]
}

export async function primeDrift(
  query: string,
  reports: readonly IndexReport[],
  options: { topK: number; folds: number; maxTokens: number },
  services: SearchServices,
): Promise<PrimerResult> {
  const vectors = await services.vectors.vectorsById(
    'community_full_content',
    reports.map((r) => r.id),
  )
  const missing = reports.filter((r) => !vectors.has(r.id))
  if (missing.length > 0) {
    throw new QueryError(
      `DRIFT search needs the community_full_content embedding of every report; ${missing.length} of ${reports.length} are missing (e.g. report ${missing[0]!.id}); re-run \`graphrag index\` with embeddings`,
    )
  }
  const probe = await embedOne(services.embedder, services.meter, await hypotheticalAnswer(query, reports, services))
  const ranked = reports
    .map((report) => ({ report, similarity: cosine(probe, vectors.get(report.id)!) }))
    .sort((a, b) => b.similarity - a.similarity)
    .slice(0, options.topK)
  const folds = splitFolds(ranked, options.folds)
  let lastError: unknown
  const primed = await mapBounded(folds, services.concurrency, async (fold) => {
    try {
      return await primeFold(
        query,
        fold.map((f) => f.report),
        options.maxTokens,
        services,
      )
    } catch (error) {
      if (!isModelFailure(error)) throw error
      lastError = error
      services.meter.recordFailure('primer')
      services.logger.warn(`DRIFT primer batch failed and was skipped: ${(error as Error).message}`)
      return undefined
    }
  })
  const ok = primed.filter((p) => p !== undefined)
  if (ok.length === 0) throw new QueryError('DRIFT search failed: no primer call succeeded', { cause: lastError })
  return {
    answer: ok.map((p) => p.answer).join('\n\n'),
    followUps: ok.flatMap((p) => p.followUps.map((query) => ({ query, score: p.score }))),
    reports: ranked,
  }
}

async function hypotheticalAnswer(
  query: string,
  reports: readonly IndexReport[],
  services: SearchServices,
): Promise<string> {
  const template = [...reports].sort((a, b) => b.rank - a.rank)[0]
  if (template === undefined) return query
  const result = await services.chat!.complete('hyde', {
    messages: [{ role: 'user', content: formatPrompt(HYDE_PROMPT, { query, template: template.full_content }) }],
  })
  return result.content.trim() === '' ? query : result.content
}

/** One primer call; the fold's reports are added most similar first while they fit primer_llm_max_tokens. */
async function primeFold(query: string, fold: readonly IndexReport[], maxTokens: number, services: SearchServices) {
  const fill = fillRows(
    fold,
    (r) => `${r.full_content}\n\n`,
    maxTokens - services.countTokens(formatPrompt(PRIMER_PROMPT, { query, community_reports: '' })),
    services.countTokens,
  )
  const prompt = formatPrompt(PRIMER_PROMPT, { query, community_reports: fill.rows.join('').trim() })
  const result = await services.chat!.complete('primer', {
    messages: [{ role: 'user', content: prompt }],
    responseFormat: { type: 'json_object', required: ['intermediate_answer'] },
  })
  const reply = replyObject(result)
  const answer = reply?.intermediate_answer
  if (typeof answer !== 'string' || answer.trim() === '')
    throw new QueryError('the primer reply has no "intermediate_answer"')
  const followUps = Array.isArray(reply!.follow_up_queries)
    ? reply!.follow_up_queries.filter((q): q is string => typeof q === 'string' && q.trim() !== '')
    : []
  return { answer, score: toNumber(reply!.score) ?? 0, followUps }
}

/** Contiguous folds whose sizes differ by at most one, earlier ones larger; never an empty fold. */
export function splitFolds<T>(items: readonly T[], folds: number): T[][] {
  const n = Math.max(1, Math.min(folds, items.length))
  const out: T[][] = []
  let start = 0
  for (let i = 0; i < n; i++) {
    const size = Math.floor(items.length / n) + (i < items.length % n ? 1 : 0)
    out.push(items.slice(start, start + size))
    start += size
  }
  return out.filter((f) => f.length > 0)
}

function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length)
    throw new QueryError(
      `embedding size mismatch: the query vector has ${a.length} dimensions, the stored report vectors ${b.length}; query with the embedding model used for indexing`,
    )
  return cosineSimilarity(a, b)
}
