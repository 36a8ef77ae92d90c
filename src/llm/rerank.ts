/**
 * A reranker client: POST {api_base}/rerank in the Cohere shape (also served by Jina, Voyage and
 * vLLM) or the TEI shape, with the LLM layer's conventions: a timeout per request, retries of
 * timeouts, 429 and 5xx (Retry-After honoured) through withRetry, and errors that never carry the key.
 */
import { AttemptFailure, isRetryableStatus } from './failure.js'
import { retryAfterMs } from './client.js'
import { withRetry, type RetryPolicy } from './retry.js'
import { redactUrls } from './safe-url.js'
import { UsageMeter } from './usage.js'

export interface RerankOptions {
  apiBase: string
  protocol: 'cohere' | 'tei'
  model: string | undefined
  apiKey: string | undefined
  timeoutSeconds: number
  maxRetries: number
}

/** One relevance score per document, in input order. */
export type Reranker = (query: string, documents: readonly string[], signal?: AbortSignal) => Promise<number[]>

export function createReranker(options: RerankOptions): Reranker {
  const policy: RetryPolicy = {
    type: 'exponential_backoff',
    maxRetries: options.maxRetries,
    baseDelay: 2,
    jitter: true,
    maxDelay: 30,
  }
  const ctx = { modelRef: 'rerank', keyOrigin: options.apiKey === undefined ? undefined : 'rerank.api_key', policy }
  const meter = new UsageMeter(undefined)
  return (query, documents, signal) =>
    documents.length === 0
      ? Promise.resolve([])
      : withRetry(ctx, meter, signal, () => attempt(options, query, documents, signal))
}

function requestBody(options: RerankOptions, query: string, documents: readonly string[]): Record<string, unknown> {
  if (options.protocol === 'tei') return { query, texts: documents, ...(options.model ? { model: options.model } : {}) }
  return { query, documents, top_n: documents.length, ...(options.model ? { model: options.model } : {}) }
}

async function attempt(
  options: RerankOptions,
  query: string,
  documents: readonly string[],
  outer: AbortSignal | undefined,
): Promise<number[]> {
  const timeout = AbortSignal.timeout(options.timeoutSeconds * 1000)
  const signal = outer === undefined ? timeout : AbortSignal.any([outer, timeout])
  const url = `${options.apiBase.replace(/\/+$/, '')}/rerank`
  const headers: Record<string, string> = { 'content-type': 'application/json' }
  if (options.apiKey !== undefined) headers.authorization = `Bearer ${options.apiKey}`
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(requestBody(options, query, documents)),
      signal,
    })
  } catch (error) {
    if (outer?.aborted === true) throw new AttemptFailure('request aborted', { kind: 'aborted', retryable: false })
    if (timeout.aborted) throw new AttemptFailure('request timed out', { kind: 'timeout', retryable: true })
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error)
    throw new AttemptFailure(`cannot reach the reranker (${safe(cause, options)})`, {
      kind: 'connection',
      retryable: true,
    })
  }
  const text = await response.text()
  if (!response.ok) {
    const status = response.status
    // Auth replies may echo the key: their text is not passed on.
    const auth = status === 401 || status === 403
    throw new AttemptFailure(auth ? `HTTP ${status}` : `HTTP ${status}: ${safe(text.slice(0, 300), options)}`, {
      kind: 'http',
      status,
      retryable: isRetryableStatus(status),
      retryAfterMs: retryAfterMs(response.headers),
    })
  }
  return parseScores(text, documents.length, options)
}

/** Scores by index from `results` (Cohere, Jina, vLLM), `data` (Voyage) or a bare list (TEI). */
function parseScores(text: string, count: number, options: RerankOptions): number[] {
  const invalid = (why: string) =>
    new AttemptFailure(`invalid reply: ${why} (${safe(text.slice(0, 200), options)})`, {
      kind: 'invalid_reply',
      retryable: true,
    })
  let body: unknown
  try {
    body = JSON.parse(text)
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
    throw invalid('not JSON')
  }
  const record = body as { results?: unknown; data?: unknown }
  const items = Array.isArray(body) ? body : Array.isArray(record?.results) ? record.results : record?.data
  if (!Array.isArray(items)) throw invalid('no results list')
  const scores = new Array<number | undefined>(count).fill(undefined)
  for (const item of items as Array<{ index?: unknown; relevance_score?: unknown; score?: unknown }>) {
    const score = item?.relevance_score ?? item?.score
    if (typeof item?.index !== 'number' || typeof score !== 'number' || !Number.isFinite(score))
      throw invalid('a result without index and score')
    if (item.index >= 0 && item.index < count) scores[item.index] = score
  }
  if (scores.some((s) => s === undefined))
    throw invalid(`scores for ${scores.filter((s) => s !== undefined).length} of ${count} documents`)
  return scores as number[]
}

function safe(text: string, options: RerankOptions): string {
  const redacted = redactUrls(text)
  return options.apiKey ? redacted.replaceAll(options.apiKey, '***') : redacted
}
