/**
 * One question to the chat model and the check of its answer. The LLM layer already retries an
 * answer that is not JSON of the requested shape; here the content is checked too. A single-answer
 * step asks once more past the cache and then fails naming the step; a per-chunk step skips the
 * chunk and counts it, failing only when no chunk gave a usable answer.
 */
import { LlmError } from '../errors.js'
import { formatPrompt } from '../prompts/prompt-template.js'
import type { ChatModel, JsonSchemaFormat } from '../llm/types.js'
import { mapBounded } from '../storage/bounded-map.js'

/** Either the value made from a usable answer, or why the answer cannot be used. */
export type Checked<T> = { ok: true; value: T } | { ok: false; problem: string }

export interface Question<T> {
  step: string
  template: string
  values: Readonly<Record<string, string>>
  format: JsonSchemaFormat
  check(json: Record<string, unknown>): Checked<T>
}

export interface AskServices {
  chat: ChatModel
  signal?: AbortSignal
}

export interface Unusable {
  step: string
  /** Which chunk (1-based, in sample order) the answer was for. */
  chunk: number
  problem: string
}

export async function askOnce<T>(q: Question<T>, services: AskServices, advice: string): Promise<T> {
  let problem = ''
  for (const noCache of [false, true]) {
    const reply = await services.chat.complete({
      messages: message(q),
      responseFormat: q.format,
      noCache,
      signal: services.signal,
    })
    const checked = q.check(reply.json as Record<string, unknown>)
    if (checked.ok) return checked.value
    problem = checked.problem
  }
  throw new LlmError(`prompt-tune ${q.step}: the model's answer was unusable twice (${problem}); ${advice}`, {
    model: services.chat.id,
    attempts: 2,
  })
}

/** One question per chunk, concurrently; unusable answers are skipped and reported in `unusable`. */
export async function askPerChunk<T>(
  questions: readonly Question<T>[],
  services: AskServices & { concurrency: number; onDone?: () => void },
): Promise<{ values: Array<T | undefined>; unusable: Unusable[] }> {
  const unusable: Unusable[] = []
  let firstError: unknown
  const values = await mapBounded(questions, services.concurrency, async (q, i) => {
    try {
      const reply = await services.chat.complete({
        messages: message(q),
        responseFormat: q.format,
        signal: services.signal,
      })
      const checked = q.check(reply.json as Record<string, unknown>)
      if (checked.ok) return checked.value
      unusable.push({ step: q.step, chunk: i + 1, problem: checked.problem })
    } catch (error) {
      if (!(error instanceof LlmError)) throw error
      firstError ??= error
      unusable.push({ step: q.step, chunk: i + 1, problem: error.message })
    } finally {
      services.onDone?.()
    }
    return undefined
  })
  if (questions.length > 0 && values.every((v) => v === undefined) && firstError !== undefined) throw firstError
  unusable.sort((a, b) => a.chunk - b.chunk)
  return { values, unusable }
}

function message(q: Question<unknown>): Array<{ role: 'user'; content: string }> {
  return [{ role: 'user', content: formatPrompt(q.template, q.values) }]
}

/** One line of plain text: whitespace collapsed, trimmed. */
export function oneLine(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() : ''
}

/** A short text field: usable when non-empty and at most `max` characters. */
export function shortText(json: Record<string, unknown>, key: string, max: number): Checked<string> {
  const value = oneLine(json[key])
  if (value === '') return { ok: false, problem: `"${key}" is empty` }
  if (value.length > max) return { ok: false, problem: `"${key}" is longer than ${max} characters` }
  return { ok: true, value }
}
