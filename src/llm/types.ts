/**
 * The LLM contract every workflow and query method uses. Implementations (src/llm/*) compose
 * transport, cache, retries and rate limiting behind these two interfaces.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant'
  content: string
}

/** A JSON schema the reply must satisfy (sent as OpenAI `response_format: json_schema`). */
export interface JsonSchemaFormat {
  type: 'json_schema'
  name: string
  schema: Record<string, unknown>
}

/**
 * Any JSON object (sent as `response_format: json_object`). `required` names keys the caller cannot do
 * without: a reply lacking one is invalid and retried like a reply that is not JSON at all.
 */
interface JsonObjectFormat {
  type: 'json_object'
  required?: readonly string[]
}

export type ResponseFormat = JsonSchemaFormat | JsonObjectFormat

export interface CompletionRequest {
  messages: readonly ChatMessage[]
  /** Ask for structured output; the reply is parsed tolerantly and validated, `json` holds the value. */
  responseFormat?: ResponseFormat
  /** Extra OpenAI parameters for this call (temperature, max_tokens, …), merged over the model's call_args. */
  callArgs?: Readonly<Record<string, unknown>>
  /** Bypass the cache for this call (preflight checks). */
  noCache?: boolean
  signal?: AbortSignal
  /** Called right before each attempt goes on the wire; throwing stops the call unsent (Ctrl-C). */
  beforeSend?: () => void
}

export interface TokenUsage {
  promptTokens: number
  completionTokens: number
}

export interface CompletionResult {
  content: string
  /** The parsed JSON value when a responseFormat was requested. */
  json?: unknown
  usage: TokenUsage
  cached: boolean
  /**
   * The model cache's key for this reply (absent without a cache): a caller that later reuses what it
   * derived from the reply can read that entry again, so the run still records it in model_replies.
   */
  cacheKey?: string
}

export interface ChatModel {
  /** The settings id (`default_completion_model`). */
  readonly id: string
  /** The provider model name (`gpt-4.1`). */
  readonly model: string
  complete(request: CompletionRequest): Promise<CompletionResult>
  /** Streams the reply text; usage is still counted in the model's stats. */
  stream(request: CompletionRequest): AsyncIterable<string>
  /** Token count with the model's tokenizer. */
  countTokens(text: string): number
}

export interface EmbeddingModel {
  readonly id: string
  readonly model: string
  /**
   * One vector per input text, in input order. Long texts are windowed and mean-pooled; an empty
   * text gets an empty vector (there is nothing to embed). `noCache` bypasses the cache (preflight).
   */
  embed(
    texts: readonly string[],
    options?: { signal?: AbortSignal; noCache?: boolean; beforeSend?: () => void },
  ): Promise<number[][]>
  countTokens(text: string): number
}

/** Per-model usage counters, summed per workflow by the runner. */
export interface ModelUsage {
  calls: number
  cacheHits: number
  retries: number
  failures: number
  promptTokens: number
  completionTokens: number
  wallSeconds: number
  /** USD for the tokens of priced models; tokens of a model without a known price add nothing here. */
  costUsd: number
  /**
   * Tokens spent on a model with no built-in or configured price: when above 0, `costUsd` is only a
   * lower bound and a summary should say the cost is (partly) unknown.
   */
  unpricedTokens: number
}
