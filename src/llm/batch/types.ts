/**
 * The provider side of batch mode: a Batch API takes many request lines at once (each with our own
 * id, the request's cache-key-like hash), answers them within a window at about half the price, and
 * hands back one result per line. Each provider module (openai.ts, anthropic.ts, gemini.ts) maps
 * this contract onto its own endpoints.
 */

/** One request of a batch: `key` identifies it across processes (the same request always has the same key). */
export interface BatchLine {
  key: string
  kind: 'chat' | 'embedding'
  /** The request body as the synchronous call would send it (OpenAI protocol). */
  body: Record<string, unknown>
}

/** A line's answer: the reply body a synchronous call would have received, or why there is none. */
export type LineResult =
  | { ok: true; body: unknown }
  | { ok: false; status: number | undefined; message: string; retryable: boolean }

export type BatchStatus = 'pending' | 'completed' | 'failed' | 'expired' | 'cancelled'

export interface BatchApi {
  /** For messages: `openai`, `azure`, `anthropic`, `gemini`. */
  readonly provider: string
  /** Lines and bytes of one batch (the provider's limits). */
  readonly maxLines: number
  readonly maxBytes: number
  /** Embedding lines too (Anthropic has no embeddings). */
  readonly embeddings: boolean
  /** Uploads and creates one batch; returns its id. */
  submit(lines: readonly BatchLine[]): Promise<string>
  status(id: string): Promise<BatchStatus>
  /** The answered lines by key (a failed or expired batch may have answered some). */
  results(id: string): Promise<Map<string, LineResult>>
}

/** The wire size of a line, for the byte limit. */
export function lineBytes(line: BatchLine): number {
  return Buffer.byteLength(JSON.stringify(line.body)) + 200
}
