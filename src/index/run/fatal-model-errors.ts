/**
 * Stops a workflow at the first model error that every later call would repeat: a rejected key
 * (401/403) or an unknown model or endpoint (404). Without this, a workflow that tolerates failed
 * items would send every remaining unit just to collect the same answer again.
 */
import { setMaxListeners } from 'node:events'
import { LlmError } from '../../errors.js'
import type { ChatModel, EmbeddingModel } from '../../llm/types.js'
import type { ModelProvider } from '../workflow.js'

const FATAL_STATUSES: ReadonlySet<number | undefined> = new Set([401, 403, 404])

export interface FatalErrorGuard {
  /** Models whose fatal errors abort `signal`. */
  models: ModelProvider
  /** The run's signal, also aborted by the first fatal error. */
  signal: AbortSignal
  /** The first fatal error, once one happened. */
  fatal(): LlmError | undefined
}

export function guardAgainstFatalErrors(provider: ModelProvider, runSignal: AbortSignal): FatalErrorGuard {
  const controller = new AbortController()
  let first: LlmError | undefined
  const seen = (error: unknown): void => {
    if (first !== undefined || !(error instanceof LlmError) || error.retryable || !FATAL_STATUSES.has(error.status))
      return
    first = error
    // Not an LlmError: operations that record failed items must not swallow the stop as one more failure.
    controller.abort(new Error(`stopped after a model error every call would repeat: ${error.message}`))
  }
  const signal = AbortSignal.any([runSignal, controller.signal])
  // Every queued or retrying request listens to it (see runSignal in runner.ts).
  setMaxListeners(0, signal)
  return {
    models: {
      chat: (id, options) => guardChat(provider.chat(id, options), seen),
      embedding: (id, options) => guardEmbedding(provider.embedding(id, options), seen),
      hasChat: (id) => provider.hasChat(id),
    },
    signal,
    fatal: () => first,
  }
}

function guardChat(model: ChatModel, seen: (error: unknown) => void): ChatModel {
  return {
    id: model.id,
    model: model.model,
    complete: (request) => model.complete(request).catch((error: unknown) => Promise.reject(report(error, seen))),
    stream: (request) => guardStream(model.stream(request), seen),
    countTokens: (text) => model.countTokens(text),
  }
}

async function* guardStream(inner: AsyncIterable<string>, seen: (error: unknown) => void): AsyncIterable<string> {
  try {
    yield* inner
  } catch (error) {
    throw report(error, seen)
  }
}

function guardEmbedding(model: EmbeddingModel, seen: (error: unknown) => void): EmbeddingModel {
  return {
    id: model.id,
    model: model.model,
    embed: (texts, options) =>
      model.embed(texts, options).catch((error: unknown) => Promise.reject(report(error, seen))),
    countTokens: (text) => model.countTokens(text),
  }
}

function report(error: unknown, seen: (error: unknown) => void): unknown {
  seen(error)
  return error
}
