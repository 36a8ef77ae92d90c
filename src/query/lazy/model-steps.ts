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
import { CLAIMS_PROMPT, passageBlock, RELEVANCE_PROMPT, sentenceBlock, SUBQUERY_PROMPT } from './prompts.js'

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

/** A passage as a relevance test shows it: its sentences nearest the sub-question. */
export interface SentencePassage {
  id: string
  label: string
  sentences: readonly string[]
}

/**
 * The passages judged relevant to `question` (none when the call failed): unit id → its sentences
 * judged relevant, in text order, which are all the claim step reads of it.
 */
export async function judgeRelevance(
  question: string,
  passages: readonly SentencePassage[],
  context: StepContext,
): Promise<Map<string, string[]>> {
  const ask = async () => {
    const result = await context.chat.complete('relevance', {
      messages: [
        { role: 'system', content: RELEVANCE_PROMPT },
        { role: 'user', content: sentenceBlock(question, passages) },
      ],
      responseFormat: { type: 'json_object', required: ['relevant'] },
    })
    return relevantSentences(replyObject(result)?.relevant, passages)
  }
  return tolerated('relevance', 'a relevance test', context, ask, new Map<string, string[]>())
}

/**
 * Reads a relevance reply `{"passage": [sentence numbers]}`. A passage named with no usable sentence
 * number (or a reply listing passage numbers only, `[3, 12]`) counts as relevant as a whole: a model
 * that ignores the sentences still gets its verdict heard. Unknown passages and numbers are ignored.
 */
export function relevantSentences(reply: unknown, passages: readonly SentencePassage[]): Map<string, string[]> {
  const named = new Map<string, unknown>()
  if (Array.isArray(reply)) for (const label of reply) named.set(String(label).trim(), true)
  else if (typeof reply === 'object' && reply !== null)
    for (const [label, numbers] of Object.entries(reply)) named.set(label.trim(), numbers)
  const out = new Map<string, string[]>()
  for (const p of passages) {
    if (!named.has(p.label)) continue
    const numbers = named.get(p.label)
    // Named with an empty list: the model looked and found no helpful sentence.
    if (Array.isArray(numbers) && numbers.length === 0) continue
    const picked = Array.isArray(numbers) ? p.sentences.filter((_, i) => numbers.some((n) => Number(n) === i + 1)) : []
    out.set(p.id, picked.length > 0 ? picked : [...p.sentences])
  }
  return out
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
