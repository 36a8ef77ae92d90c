/**
 * Embedding batching (reference §5.13): texts longer than `batchMaxTokens` are split into
 * overlapping token windows, windows are packed into batches by count and tokens, batches run
 * concurrently (the rate limiter bounds them), and multi-window texts are mean-pooled and
 * L2-normalised. A batch that still fails after retries is split in halves down to single texts.
 */
import { LlmError } from '../errors.js'
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

/** One vector per text, in input order; an empty text gets an empty vector (nothing to embed). */
export async function embedInBatches(
  texts: readonly string[],
  transport: EmbedTransport,
  tokenizer: Tokenizer,
  options: BatchingOptions,
  base: CallBase,
): Promise<number[][]> {
  const snippets: Array<{ owner: number; text: string; tokens: number }> = []
  texts.forEach((text, owner) => {
    for (const window of windows(text, tokenizer, options)) snippets.push({ owner, ...window })
  })
  const batches = pack(snippets, options)
  const results = await Promise.all(batches.map((batch) => embedSplitting(batch.map((s) => s.text), transport, base)))
  const perText: number[][][] = texts.map(() => [])
  batches.forEach((batch, b) => batch.forEach((snippet, i) => perText[snippet.owner]!.push(results[b]![i]!)))
  return perText.map((vectors) => (vectors.length <= 1 ? (vectors[0] ?? []) : meanNormalised(vectors)))
}

function windows(text: string, tokenizer: Tokenizer, options: BatchingOptions): Array<{ text: string; tokens: number }> {
  if (text === '') return []
  const tokens = tokenizer.encode(text)
  if (tokens.length <= options.batchMaxTokens) return [{ text, tokens: tokens.length }]
  const step = Math.max(1, options.batchMaxTokens - options.windowOverlap)
  const out: Array<{ text: string; tokens: number }> = []
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
    if (current.length > 0 && (current.length >= options.batchSize || tokens + snippet.tokens > options.batchMaxTokens)) {
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

/** A batch that fails for a size- or load-related reason is retried as two halves. */
async function embedSplitting(input: readonly string[], transport: EmbedTransport, base: CallBase): Promise<number[][]> {
  try {
    return (await transport.embed({ ...base, input })).vectors
  } catch (error) {
    if (input.length <= 1 || !splittable(error)) throw error
    const middle = Math.ceil(input.length / 2)
    const [left, right] = await Promise.all([
      embedSplitting(input.slice(0, middle), transport, base),
      embedSplitting(input.slice(middle), transport, base),
    ])
    return [...left, ...right]
  }
}

function splittable(error: unknown): boolean {
  return error instanceof LlmError && (error.retryable || error.status === 413)
}

function meanNormalised(vectors: readonly number[][]): number[] {
  const dim = vectors[0]!.length
  const sum = new Array<number>(dim).fill(0)
  for (const v of vectors) for (let i = 0; i < dim; i++) sum[i]! += v[i]! / vectors.length
  const norm = Math.hypot(...sum) || 1
  return sum.map((x) => x / norm)
}
