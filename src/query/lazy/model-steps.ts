/**
 * The model calls of lazy search: refine the question into sub-questions, judge passages for
 * relevance (one call per batch), and extract claims from the relevant passages. A failed call is
 * counted and worked around (the question itself, no relevant passage, no claims), never fatal alone.
 */
import { formatPrompt } from '../../prompts/prompt-template.js'
import { replyObject } from '../search/json-reply.js'
import { isModelFailure } from '../search/model-failure.js'
import type { SearchServices } from '../services.js'
import type { MeteredChat } from '../usage.js'
import { parseClaims, type Claim } from './claims.js'
import { CLAIMS_PROMPT, passageBlock, RELEVANCE_PROMPT, SUBQUERY_PROMPT } from './prompts.js'

export interface Passage {
  /** The unit's id. */
  id: string
  /** What the model and the answer call it: the unit's human-readable id. */
  label: string
  text: string
}

/** The model a step calls, the search's services, and where worked-around failures are told. */
export interface StepContext {
  chat: MeteredChat
  services: SearchServices
  warnings: string[]
}

/** Calls `fn`; a model failure is counted under `step`, logged, and becomes `fallback`. */
async function tolerated<T>(
  step: string,
  what: string,
  { services, warnings }: StepContext,
  fn: () => Promise<T>,
  fallback: T,
): Promise<T> {
  try {
    return await fn()
  } catch (error) {
    if (!isModelFailure(error)) throw error
    services.meter.recordFailure(step)
    const message = `lazy search: ${what} failed: ${(error as Error).message}`
    services.logger.warn(message)
    warnings.push(message)
    return fallback
  }
}

/** Up to `count` sub-questions (the question itself when the reply has none or the call failed). */
export async function refineQuestion(question: string, count: number, context: StepContext): Promise<string[]> {
  const ask = async () => {
    const result = await context.chat.complete('subqueries', {
      messages: [
        { role: 'system', content: formatPrompt(SUBQUERY_PROMPT, { count }) },
        { role: 'user', content: question },
      ],
      responseFormat: { type: 'json_object', required: ['subqueries'] },
    })
    const list = replyObject(result)?.subqueries
    return Array.isArray(list) ? list.filter((q): q is string => typeof q === 'string' && q.trim() !== '') : []
  }
  const found = await tolerated('subqueries', 'refining the question', context, ask, [])
  const unique = [...new Set(found.map((q) => q.trim()))].slice(0, count)
  return unique.length > 0 ? unique : [question]
}

/** The ids of the passages judged relevant to `question` (none when the call failed). */
export async function judgeRelevance(
  question: string,
  passages: readonly Passage[],
  context: StepContext,
): Promise<string[]> {
  const ask = async () => {
    const result = await context.chat.complete('relevance', {
      messages: [
        { role: 'system', content: RELEVANCE_PROMPT },
        { role: 'user', content: passageBlock(question, passages) },
      ],
      responseFormat: { type: 'json_object', required: ['relevant'] },
    })
    const list = replyObject(result)?.relevant
    const said = new Set((Array.isArray(list) ? list : []).map((x) => String(x).trim()))
    return passages.filter((p) => said.has(p.label)).map((p) => p.id)
  }
  return tolerated('relevance', 'a relevance test', context, ask, [])
}

/** What one claim call reads: sub-question number `subquery`, its passages and their concepts. */
export interface ClaimBatch {
  question: string
  subquery: number
  passages: readonly Passage[]
  concepts: string
}

/** Claims of the passages bearing on the batch's sub-question, at most `limit`. */
export async function extractClaims(batch: ClaimBatch, limit: number, context: StepContext): Promise<Claim[]> {
  const { question, subquery, passages, concepts } = batch
  const labels = new Map(passages.map((p) => [p.label, p.id]))
  const ask = async () => {
    const result = await context.chat.complete('claims', {
      messages: [
        { role: 'system', content: formatPrompt(CLAIMS_PROMPT, { limit }) },
        { role: 'user', content: passageBlock(question, passages, concepts) },
      ],
      responseFormat: { type: 'json_object', required: ['claims'] },
    })
    return parseClaims(replyObject(result), labels, subquery, limit)
  }
  return tolerated('claims', 'a claim extraction', context, ask, [])
}
