/**
 * The one async interface every layer of src/llm implements and wraps (client → rate limit →
 * retry → cache). Calls carry the usage meter of the workflow that made them.
 */
import type { ChatMessage, ResponseFormat, TokenUsage } from './types.js'
import type { UsageMeter } from './usage.js'

export interface ChatCall {
  messages: readonly ChatMessage[]
  responseFormat: ResponseFormat | undefined
  /** The model's call_args merged with the request's callArgs. */
  params: Readonly<Record<string, unknown>>
  meter: UsageMeter
  noCache: boolean
  signal: AbortSignal | undefined
  /** Called when the request is about to go on the wire (each attempt); throwing stops it unsent. */
  beforeSend?: () => void
}

export interface ChatReply {
  content: string
  json?: unknown
  usage: TokenUsage
  /** Set by the cache layer when the reply came from the cache. */
  cached?: boolean
  /** Set by the cache layer: the key of the entry the reply is stored under. */
  cacheKey?: string
}

export interface ChatTransport {
  complete(call: ChatCall): Promise<ChatReply>
  /** Text deltas; usage is added to `call.meter` when the stream ends. */
  stream(call: ChatCall): AsyncIterable<string>
}

export interface EmbedCall {
  input: readonly string[]
  meter: UsageMeter
  noCache: boolean
  signal: AbortSignal | undefined
  beforeSend?: () => void
}

export interface EmbedReply {
  /** One vector per input, in input order; usage is added to `call.meter`. */
  vectors: number[][]
}

export interface EmbedTransport {
  embed(call: EmbedCall): Promise<EmbedReply>
}
