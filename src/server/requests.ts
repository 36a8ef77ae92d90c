/** Reads and checks request bodies: bad JSON or a missing/wrong field is a 400 naming the field. */
import type { Context } from 'hono'
import { RequestError } from '../errors.js'
import { parseHistory } from '../query/index.js'
import type { SearchMethod } from '../query/index.js'
import { SEARCH_DEFAULTS } from '../query/index.js'
import { externalPassages } from '../query/hybrid/output.js'
import type { QueryRequest } from './query-service.js'

export const QUERY_METHODS: readonly SearchMethod[] = ['local', 'global', 'drift', 'basic', 'graph', 'hybrid']

export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  const text = await c.req.text()
  let value: unknown
  try {
    value = text.trim() === '' ? {} : JSON.parse(text)
  } catch {
    // The parser's own message quotes the body; ours says what is wrong without echoing it.
    throw new RequestError(400, 'the request body is not valid JSON')
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new RequestError(400, 'the request body must be a JSON object')
  return value as Record<string, unknown>
}

export function requiredString(body: Record<string, unknown>, field: string): string {
  const value = body[field]
  if (value === undefined || value === null) throw new RequestError(400, `${field}: required`)
  if (typeof value !== 'string' || value.trim() === '')
    throw new RequestError(400, `${field}: expected a non-empty string`)
  return value
}

function optionalString(body: Record<string, unknown>, field: string, def: string): string {
  const value = body[field]
  if (value === undefined || value === null) return def
  if (typeof value !== 'string' || value.trim() === '')
    throw new RequestError(400, `${field}: expected a non-empty string`)
  return value
}

export function optionalBool(body: Record<string, unknown>, field: string, def: boolean): boolean {
  const value = body[field]
  if (value === undefined || value === null) return def
  if (typeof value !== 'boolean') throw new RequestError(400, `${field}: expected true or false`)
  return value
}

export function oneOfField<T extends string>(
  body: Record<string, unknown>,
  field: string,
  allowed: readonly T[],
  def: T,
): T {
  const value = body[field] ?? def
  if (typeof value !== 'string' || !allowed.includes(value as T))
    throw new RequestError(400, `${field}: expected one of ${allowed.join(', ')}`)
  return value as T
}

function level(body: Record<string, unknown>): number {
  const value = body.community_level ?? SEARCH_DEFAULTS.communityLevel
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
    throw new RequestError(400, 'community_level: expected a whole number ≥ 0')
  return value
}

function history(body: Record<string, unknown>): QueryRequest['history'] {
  if (body.history === undefined || body.history === null) return []
  try {
    return parseHistory(body.history, 'history')
  } catch (error) {
    throw new RequestError(400, error instanceof Error ? error.message : 'history: invalid')
  }
}

/** The body of POST /query. */
export function queryRequest(body: Record<string, unknown>): QueryRequest & { stream: boolean } {
  const method = oneOfField(body, 'method', QUERY_METHODS, 'global')
  return {
    question: requiredString(body, 'question'),
    method,
    communityLevel: level(body),
    responseType: optionalString(body, 'response_type', SEARCH_DEFAULTS.responseType),
    dynamicCommunitySelection: optionalBool(
      body,
      'dynamic_community_selection',
      SEARCH_DEFAULTS.dynamicCommunitySelection,
    ),
    history: history(body),
    stream: optionalBool(body, 'stream', false),
    externalContext: externalContext(body, method),
  }
}

/** `context`: passages from outside the index for hybrid search, as strings or {id, text} (the --context file of the CLI). */
function externalContext(body: Record<string, unknown>, method: SearchMethod): QueryRequest['externalContext'] {
  const value = body.context
  if (value === undefined || value === null) return []
  if (method !== 'hybrid') throw new RequestError(400, 'context: only available with method hybrid')
  return externalPassages(
    value,
    (at, detail) => new RequestError(400, `context${at === undefined ? '' : `[${at}]`}: ${detail}`),
  )
}
