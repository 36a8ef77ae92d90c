/**
 * Request bodies as zod schemas, checked by hono's validator: bad JSON, a body that is not an object,
 * or a missing/wrong field is a 400 whose message names the field and says what is expected.
 * Every number has a type and a range (a level is a whole number 0–100, never 1e308 or 1.5).
 */
import type { MiddlewareHandler, ValidationTargets } from 'hono'
import { validator } from 'hono/validator'
import { z } from 'zod'
import { RequestError } from '../errors.js'
import { type AnswerOnly, parseHistory, SEARCH_DEFAULTS, type SearchMethod } from '../query/index.js'
import { ANSWER_ONLY_METHODS, SEARCH_METHODS } from '../query/methods.js'
import { EMPTY_QUESTION, isBlankQuestion } from '../query/question.js'
import { externalPassages } from '../query/hybrid/output.js'
import { searchOverrides } from './query-overrides.js'
import type { QueryRequest } from './query-service.js'

export const QUERY_METHODS: readonly SearchMethod[] = SEARCH_METHODS

/** Deeper than any Leiden hierarchy gets; a bound so that 1e308 is an error, not a search over nothing. */
const MAX_COMMUNITY_LEVEL = 100
const MAX_RESPONSE_TYPE = 200

const required = (expected: string) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'required' : expected

/** A non-empty string (after trimming), `required` when absent. */
export const nonEmptyString = () =>
  z
    .string({ error: required('expected a non-empty string') })
    .refine((s) => s.trim() !== '', { error: 'expected a non-empty string' })

const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: `expected one of ${values.join(', ')}` })

const LEVEL_MESSAGE = `expected a whole number from 0 to ${MAX_COMMUNITY_LEVEL}`
const BUDGET_MESSAGE = 'expected a whole number from 1 to 1000000 (lazy search: text units tested for relevance)'

export const communityLevel = () =>
  z
    .number({ error: LEVEL_MESSAGE })
    .int({ error: LEVEL_MESSAGE })
    .min(0, { error: LEVEL_MESSAGE })
    .max(MAX_COMMUNITY_LEVEL, { error: LEVEL_MESSAGE })

export const responseType = () =>
  nonEmptyString().refine((s) => s.length <= MAX_RESPONSE_TYPE, {
    error: `expected at most ${MAX_RESPONSE_TYPE} characters`,
  })

const flag = () => z.boolean({ error: 'expected true or false' })

const wholeNumber = (min: number, max: number) => {
  const message = `expected a whole number from ${min} to ${max}`
  return z.number({ error: message }).int({ error: message }).min(min, { error: message }).max(max, { error: message })
}

export const queryMethod = () => oneOf(SEARCH_METHODS)

/** The question: an empty or blank one is refused with the CLI's words (no field prefix, see parseWith). */
const question = () =>
  z.string({ error: required('expected a non-empty string') }).refine((s) => !isBlankQuestion(s), {
    error: EMPTY_QUESTION,
  })

export const QUERY = z.object({
  question: question(),
  method: queryMethod().default('global'),
  community_level: communityLevel().default(SEARCH_DEFAULTS.communityLevel),
  response_type: responseType().default(SEARCH_DEFAULTS.responseType),
  dynamic_community_selection: flag().default(SEARCH_DEFAULTS.dynamicCommunitySelection),
  history: z.unknown().optional(),
  context: z.unknown().optional(),
  budget: z
    .number({ error: BUDGET_MESSAGE })
    .int({ error: BUDGET_MESSAGE })
    .min(1, { error: BUDGET_MESSAGE })
    .max(1_000_000, { error: BUDGET_MESSAGE })
    .optional(),
  stream: flag().default(false),
  top_k: wholeNumber(1, 1_000_000).optional(),
  max_context_tokens: wholeNumber(1, 10_000_000).optional(),
  context_only: flag().optional(),
  prompt_only: flag().optional(),
})

export const PREVIEW = z.object({ question: question() })

export const INDEX = z.object({
  mode: oneOf(['index', 'update']).default('index'),
  method: oneOf(['standard', 'fast']).optional(),
})

export const EMPTY = z.object({})

export const CHAT = z.object({
  model: z.string({ error: required('expected a string') }),
  messages: z.array(z.unknown(), { error: required('expected a non-empty array') }).min(1, {
    error: 'expected a non-empty array',
  }),
  stream: flag().default(false),
})

/** A JSON body validated against `schema`: `c.req.valid('json')` is then the parsed, typed value. */
export function jsonWith<S extends z.ZodType>(schema: S) {
  return validator('json', (value: ValidationTargets['json']) => parseWith(schema, value))
}

/** Parses `value` with `schema`, throwing one 400 that names the first bad field. */
function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new RequestError(400, 'the request body must be a JSON object')
  // JSON null means "not given" (the default), as it did before the schema.
  const present = Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null))
  const result = schema.safeParse(present)
  if (result.success) return result.data
  const issue = result.error.issues[0]!
  const field = issue.path.map(String).join('.')
  // The empty-question message is the CLI's, word for word, so it is not prefixed with the field.
  const whole = field === '' || issue.message === EMPTY_QUESTION
  throw new RequestError(400, whole ? issue.message : `${field}: ${issue.message}`)
}

export const validQuery = () => jsonWith(QUERY)
export const validPreview = () => jsonWith(PREVIEW)
export const validIndex = () => jsonWith(INDEX)
/** `{}` or no body at all (the seed API's clients POST /cache/clear with none, with or without a JSON content type). */
export function validEmptyOrNone(): MiddlewareHandler {
  return async (c, next) => {
    const text = await c.req.text()
    let value: unknown = {}
    if (text.trim() !== '') {
      try {
        value = JSON.parse(text)
      } catch (error) {
        if (!(error instanceof SyntaxError)) throw error
        throw new RequestError(400, 'the request body is not valid JSON')
      }
    }
    c.req.addValidatedData('json', parseWith(EMPTY, value))
    await next()
  }
}
export const validChat = () => jsonWith(CHAT)

export type QueryBody = z.output<typeof QUERY>
export type ChatBody = z.output<typeof CHAT>

/** The body of POST /query as the query service's request. */
export function queryRequest(body: QueryBody): QueryRequest & { stream: boolean } {
  return {
    question: body.question,
    method: body.method,
    communityLevel: body.community_level,
    responseType: body.response_type,
    dynamicCommunitySelection: body.dynamic_community_selection,
    history: history(body.history),
    stream: body.stream,
    externalContext: externalContext(body.context, body.method),
    ...lazyBudget(body.budget, body.method),
    ...settingOverrides(body),
    ...answerOnly(body),
  }
}

/** `context_only` / `prompt_only`: the context (or the whole prompt) instead of the model's answer. */
function answerOnly(body: QueryBody): { only?: AnswerOnly } {
  if (body.context_only === true && body.prompt_only === true)
    throw new RequestError(400, 'context_only, prompt_only: choose one')
  const only = body.context_only === true ? 'context' : body.prompt_only === true ? 'prompt' : undefined
  if (only === undefined) return {}
  if (!ANSWER_ONLY_METHODS.includes(body.method))
    throw new RequestError(400, `${only}_only: only available with method ${ANSWER_ONLY_METHODS.join(', ')}`)
  return { only }
}

/** `top_k`, `max_context_tokens`: the method's settings for this query (absent when neither is given). */
function settingOverrides(body: QueryBody): { overrides?: Record<string, number> } {
  const overrides = searchOverrides(body.method, { top_k: body.top_k, max_context_tokens: body.max_context_tokens })
  return Object.keys(overrides).length === 0 ? {} : { overrides }
}

/** `budget`: lazy search's relevance-test budget (default lazy_search.relevance_budget). */
function lazyBudget(value: number | undefined, method: SearchMethod): { budget?: number } {
  if (value === undefined) return {}
  if (method !== 'lazy') throw new RequestError(400, 'budget: only available with method lazy')
  return { budget: value }
}

function history(value: unknown): QueryRequest['history'] {
  if (value === undefined) return []
  try {
    return parseHistory(value, 'history')
  } catch (error) {
    throw new RequestError(400, error instanceof Error ? error.message : 'history: invalid')
  }
}

/** `context`: passages from outside the index for hybrid search, as strings or {id, text} (the --context file of the CLI). */
function externalContext(value: unknown, method: SearchMethod): QueryRequest['externalContext'] {
  if (value === undefined) return []
  if (method !== 'hybrid') throw new RequestError(400, 'context: only available with method hybrid')
  return externalPassages(
    value,
    (at, detail) => new RequestError(400, `context${at === undefined ? '' : `[${at}]`}: ${detail}`),
  )
}
