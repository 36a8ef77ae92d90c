/** Models whose every call carries one AbortSignal: a server cancels a search's model calls when its client goes away. */
import type { ChatModel, EmbeddingModel } from '../llm/types.js'

export function chatWithSignal(chat: ChatModel, signal: AbortSignal): ChatModel {
  return {
    id: chat.id,
    model: chat.model,
    complete: (request) => {
      signal.throwIfAborted()
      return chat.complete({
        ...request,
        signal: request.signal === undefined ? signal : AbortSignal.any([signal, request.signal]),
      })
    },
    stream: (request) => {
      signal.throwIfAborted()
      return chat.stream({
        ...request,
        signal: request.signal === undefined ? signal : AbortSignal.any([signal, request.signal]),
      })
    },
    countTokens: (text) => chat.countTokens(text),
  }
}

export function embedderWithSignal(embedder: EmbeddingModel, signal: AbortSignal): EmbeddingModel {
  return {
    get id() {
      return embedder.id
    },
    get model() {
      return embedder.model
    },
    embed: (texts, options) => {
      signal.throwIfAborted()
      const own = options?.signal
      return embedder.embed(texts, { ...options, signal: own === undefined ? signal : AbortSignal.any([signal, own]) })
    },
    countTokens: (text) => embedder.countTokens(text),
  }
}
