/**
 * The transport of a model in batch mode. It builds each request exactly as the synchronous client
 * would, hands it to the model's BatchQueue and turns the line it gets back into a reply with the
 * client's own checks (chatReplyFrom / embedReplyFrom), so everything above it (retries, validation,
 * cache, usage) is the synchronous path unchanged. An unusable line throws the same retryable
 * failure a synchronous reply would: the retry layer asks again, which lands in the next batch, or
 * with `fallback` goes to the synchronous transport.
 */
import { cacheKey } from '../cache.js'
import { chatBody, chatReplyFrom, embedBody, embedReplyFrom } from '../client.js'
import { AttemptFailure } from '../failure.js'
import type { ChatCall, ChatReply, ChatTransport, EmbedCall, EmbedReply, EmbedTransport } from '../transport.js'
import type { BatchQueue } from './queue.js'
import type { BatchLine, LineResult } from './types.js'

interface BatchTransportOptions<T> {
  queue: BatchQueue
  /** The model as each line names it (Azure: the deployment). */
  model: string
  jsonMode: boolean
  dimensions: number | undefined
  countTokens: (text: string) => number
  /** The synchronous transport: streams, and with `fallback` the retry of a line a batch did not answer usably. */
  sync: T
  fallback: boolean
}

/** Sends a line and turns its result into a reply; a failed or unusable line marks its key as missed. */
function asker(queue: BatchQueue, missed: Set<string>) {
  return async <T>(line: BatchLine, call: ChatCall | EmbedCall, toReply: (body: unknown) => T): Promise<T> => {
    call.beforeSend?.()
    const result = await queue.request(line, call.signal)
    try {
      if (!result.ok) throw lineFailure(result)
      return toReply(result.body)
    } catch (error) {
      missed.add(line.key)
      throw error
    }
  }
}

export function batchChat(options: BatchTransportOptions<ChatTransport>): ChatTransport {
  /** Requests a batch answered unusably or not at all: with `fallback` their retry goes synchronously. */
  const missed = new Set<string>()
  const ask = asker(options.queue, missed)
  return {
    complete(call: ChatCall): Promise<ChatReply> {
      const body = chatBody(options.model, call, false, options.jsonMode)
      const key = cacheKey({ kind: 'chat', body })
      if (options.fallback && missed.has(key)) return options.sync.complete(call)
      return ask({ key, kind: 'chat', body }, call, (reply) => chatReplyFrom(reply, call, options.countTokens))
    },
    // Streams are for live output (queries), never batched.
    stream: (call: ChatCall) => options.sync.stream(call),
  }
}

export function batchEmbed(options: BatchTransportOptions<EmbedTransport>): EmbedTransport {
  const missed = new Set<string>()
  const ask = asker(options.queue, missed)
  return {
    embed(call: EmbedCall): Promise<EmbedReply> {
      const body = embedBody(options.model, call.input, options.dimensions)
      const key = cacheKey({ kind: 'embedding', body })
      if (options.fallback && missed.has(key)) return options.sync.embed(call)
      return ask({ key, kind: 'embedding', body }, call, (reply) => embedReplyFrom(reply, call, options.countTokens))
    },
  }
}

function lineFailure(result: Extract<LineResult, { ok: false }>): AttemptFailure {
  return new AttemptFailure(result.message, {
    kind: result.status === undefined ? 'invalid_reply' : 'http',
    status: result.status,
    retryable: result.retryable,
  })
}
