/**
 * Embedding batching (reference §5.13): texts longer than `batchMaxTokens` are split into
 * overlapping token windows; windows already in the cache are served from it; the rest (each distinct
 * text once) are packed into batches by count and tokens, run concurrently (the rate limiter bounds
 * them), and cached one by one. Multi-window texts are mean-pooled and L2-normalised. A batch that
 * still fails after retries is split in halves down to single texts; one the server refuses as too
 * large (a capacity error) is split on that first refusal.
 */
import { LlmError } from '../errors.js'
import { AttemptFailure, isCapacityFailure } from './failure.js'
import type { EmbeddingCache } from './cache.js'
import type { Tokenizer } from './tokenizer.js'
import type { EmbedCall, EmbedTransport } from './transport.js'

export interface BatchingOptions {
  /** Texts per request. */
  batchSize: number
  /** Tokens per request, and the window length for long texts. */
  batchMaxTokens: number
  /** Tokens shared by consecutive windows of one long text. */
  windowOverlap: number
}

type CallBase = Omit<EmbedCall, 'input'>

interface Snippet {
  text: string
  tokens: number
}

/**
 * One vector per text, in input order; an empty text gets an empty vector (nothing to embed).
 * `cache` is undefined when caching is off; `base.noCache` bypasses it for one call.
 */
export async function embedInBatches(
  texts: readonly string[],
  transport: EmbedTransport,
  tokenizer: Tokenizer,
  options: BatchingOptions,
  base: CallBase,
  cache: EmbeddingCache | undefined,
): Promise<number[][]> {
  const perText = texts.map((text) => windows(text, tokenizer, options))
  const distinct = [...new Map(perText.flat().map((s) => [s.text, s])).values()]
  const usable = base.noCache ? undefined : cache
  const vectors = await cachedVectors(distinct, usable, base)
  const misses = distinct.filter((s) => !vectors.has(s.text))
  const keep = async (input: readonly string[], answered: readonly number[][]) => {
    input.forEach((text, i) => vectors.set(text, answered[i]!))
    await usable?.save(input, answered)
  }
  await settleAll(
    pack(misses, options).map((batch) =>
      embedSplitting(
        batch.map((s) => s.text),
        transport,
        base,
        keep,
      ),
    ),
  )
  return perText.map((snippets) => {
    const own = snippets.map((s) => vectors.get(s.text)!)
    return own.length <= 1 ? (own[0] ?? []) : meanNormalised(own)
  })
}

async function cachedVectors(
  snippets: readonly Snippet[],
  cache: EmbeddingCache | undefined,
  base: CallBase,
): Promise<Map<string, number[]>> {
  const found = new Map<string, number[]>()
  if (cache === undefined || snippets.length === 0) return found
  const hits = await cache.lookup(snippets.map((s) => s.text))
  hits.forEach((vector, i) => {
    if (vector !== undefined) found.set(snippets[i]!.text, vector)
  })
  base.meter.servedFromCache(found.size)
  return found
}

function windows(text: string, tokenizer: Tokenizer, options: BatchingOptions): Snippet[] {
  if (text === '') return []
  const tokens = tokenizer.encode(text)
  if (tokens.length <= options.batchMaxTokens) return [{ text, tokens: tokens.length }]
  const step = Math.max(1, options.batchMaxTokens - options.windowOverlap)
  const out: Snippet[] = []
  for (let start = 0; start < tokens.length; start += step) {
    const slice = tokens.subarray(start, Math.min(tokens.length, start + options.batchMaxTokens))
    const piece = tokenizer.decode(slice)
    if (piece.trim() !== '') out.push({ text: piece, tokens: slice.length })
    if (start + options.batchMaxTokens >= tokens.length) break
  }
  return out
}

/** Starts a new batch when the current one is full by count or would exceed the token budget. */
function pack<T extends { tokens: number }>(snippets: readonly T[], options: BatchingOptions): T[][] {
  const batches: T[][] = []
  let current: T[] = []
  let tokens = 0
  for (const snippet of snippets) {
    if (
      current.length > 0 &&
      (current.length >= options.batchSize || tokens + snippet.tokens > options.batchMaxTokens)
    ) {
      batches.push(current)
      current = []
      tokens = 0
    }
    current.push(snippet)
    tokens += snippet.tokens
  }
  if (current.length > 0) batches.push(current)
  return batches
}

/**
 * Sends one batch as one metered call. A batch that fails for a size- or load-related reason is
 * retried as two halves; that failure counts as a retry, and only a request that cannot be split
 * further counts as a failure.
 */
async function embedSplitting(
  input: readonly string[],
  transport: EmbedTransport,
  base: CallBase,
  keep: (input: readonly string[], vectors: readonly number[][]) => Promise<void>,
): Promise<void> {
  const end = base.meter.start()
  let vectors: number[][]
  try {
    vectors = (await transport.embed({ ...base, input })).vectors
  } catch (error) {
    if (input.length <= 1 || !splittable(error)) {
      end('failed')
      throw error
    }
    end('split')
    const middle = Math.ceil(input.length / 2)
    await settleAll([
      embedSplitting(input.slice(0, middle), transport, base, keep),
      embedSplitting(input.slice(middle), transport, base, keep),
    ])
    return
  }
  end('ok')
  await keep(input, vectors)
}

/**
 * Like Promise.all, but when one batch fails it still waits for the others, so no request is running,
 * uncounted or uncached once the caller sees the failure; the first failure is rethrown.
 */
async function settleAll(work: readonly Promise<void>[]): Promise<void> {
  const failed = (await Promise.allSettled(work)).find((r) => r.status === 'rejected')
  if (failed !== undefined) throw failed.reason
}

/** Split on the first capacity error (no retries of the same size, see isCapacityFailure) or after retries of a transient one. */
function splittable(error: unknown): boolean {
  if (!(error instanceof LlmError)) return false
  const failure = error.cause
  return (
    error.retryable ||
    (failure instanceof AttemptFailure &&
      failure.status !== undefined &&
      isCapacityFailure(failure.status, failure.message))
  )
}

function meanNormalised(vectors: readonly number[][]): number[] {
  const dim = vectors[0]!.length
  const sum = new Array<number>(dim).fill(0)
  for (const v of vectors) for (let i = 0; i < dim; i++) sum[i]! += v[i]! / vectors.length
  const norm = Math.hypot(...sum) || 1
  return sum.map((x) => x / norm)
}
