/**
 * Transport over a Vercel AI SDK provider model (Anthropic, Gemini, Vertex AI, Bedrock): the SDK speaks
 * the provider's protocol and signs its requests; this adapter maps our calls onto its model interface
 * (doGenerate / doStream / doEmbed, so the SDK adds no retries of its own) and every failure onto an
 * AttemptFailure, so the shared layers above treat these providers exactly like OpenAI.
 */
import {
  APICallError,
  type EmbeddingModelV3,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Prompt,
  type LanguageModelV3Usage,
  type SharedV3ProviderOptions,
} from '@ai-sdk/provider'
import { callSignal } from './call-signal.js'
import { redactUrls } from './safe-url.js'
import { retryAfterMs, unreachableCode } from './client.js'
import { AttemptFailure, BlankReplyFailure, isCapacityFailure, isRetryableStatus } from './failure.js'
import { parseStructuredReply, promptedJson } from './json.js'
import { checkedEmbedding, meterReply, type StatedTokens } from './reply-tokens.js'
import type { ChatCall, ChatReply, ChatTransport, EmbedCall, EmbedReply, EmbedTransport } from './transport.js'
import type { ChatMessage } from './types.js'

export interface AiSdkOptions {
  language: LanguageModelV3 | undefined
  embedding: EmbeddingModelV3 | undefined
  /** Shown in "cannot reach" errors; never holds a key. */
  endpoint: string
  /** Whether the provider takes a JSON response format; otherwise the instruction goes in the prompt. */
  jsonMode: boolean
  timeoutMs: number
  /** Provider options of embedding calls (the requested dimension, in each provider's own key). */
  embeddingOptions: SharedV3ProviderOptions | undefined
  /** Values that must not appear in an error message (keys). */
  secrets: readonly string[]
  countTokens: (text: string) => number
}

export function aiSdkTransport(options: AiSdkOptions): ChatTransport & EmbedTransport {
  const language = (): LanguageModelV3 => {
    if (options.language === undefined) throw new AttemptFailure('this provider has no chat models', notRetryable)
    return options.language
  }

  return {
    async complete(call: ChatCall): Promise<ChatReply> {
      return completeWith(language(), call, options)
    },

    async *stream(call: ChatCall): AsyncIterable<string> {
      const request = timed(call.signal, options.timeoutMs)
      let text = ''
      let usage: LanguageModelV3Usage | undefined
      let opened = false
      try {
        const { stream } = await language().doStream(callOptions(call, options.jsonMode, request.signal))
        opened = true
        const reader = stream.getReader()
        for (;;) {
          const next = await reader.read()
          if (next.done) break
          const part = next.value
          if (part.type === 'text-delta' && part.delta !== '') {
            text += part.delta
            yield part.delta
          } else if (part.type === 'finish') usage = part.usage
          else if (part.type === 'error') throw part.error
        }
        if (text.trim() === '') throw new BlankReplyFailure('the streamed reply has no content')
      } catch (error) {
        throw toFailure(error, call.signal, request, options)
      } finally {
        request.release()
        if (opened) meterReply(call, text, statedTokens(usage), options.countTokens)
      }
    },

    async embed(call: EmbedCall): Promise<EmbedReply> {
      if (options.embedding === undefined)
        throw new AttemptFailure('this provider has no embedding models', notRetryable)
      const request = timed(call.signal, options.timeoutMs)
      try {
        const { vectors, tokens } = await embedInParts(options.embedding, call.input, request.signal, options)
        return checkedEmbedding(call, vectors, tokens, options.countTokens)
      } catch (error) {
        throw toFailure(error, call.signal, request, options)
      } finally {
        request.release()
      }
    },
  }
}

/** One chat reply (not streamed), metered, checked and, for structured output, parsed. */
async function completeWith(model: LanguageModelV3, call: ChatCall, options: AiSdkOptions): Promise<ChatReply> {
  const request = timed(call.signal, options.timeoutMs)
  let content: string
  let usage: LanguageModelV3Usage
  try {
    const result = await model.doGenerate(callOptions(call, options.jsonMode, request.signal))
    content = result.content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    usage = result.usage
  } catch (error) {
    throw toFailure(error, call.signal, request, options)
  } finally {
    request.release()
  }
  const tokens = meterReply(call, content, statedTokens(usage), options.countTokens)
  if (content.trim() === '') throw new BlankReplyFailure("the reply's message content is empty")
  if (call.responseFormat === undefined) return { content, usage: tokens }
  return { content, usage: tokens, json: parseStructuredReply(content, call.responseFormat) }
}

/**
 * The texts' vectors in input order, and the tokens the provider stated (undefined unless every part
 * stated them). Some models take one text per request (Bedrock Titan): the texts go out in parts, concurrently.
 */
async function embedInParts(
  model: EmbeddingModelV3,
  input: readonly string[],
  signal: AbortSignal,
  options: AiSdkOptions,
): Promise<{ vectors: number[][]; tokens: number | undefined }> {
  const most = Math.max(1, (await model.maxEmbeddingsPerCall) ?? input.length)
  const parts: string[][] = []
  for (let i = 0; i < input.length; i += most) parts.push(input.slice(i, i + most))
  const results = await Promise.all(
    parts.map((values) =>
      model.doEmbed({
        values,
        abortSignal: signal,
        ...(options.embeddingOptions === undefined ? {} : { providerOptions: options.embeddingOptions }),
      }),
    ),
  )
  const counted = results.map((r) => r.usage?.tokens)
  const tokens = counted.every((t) => typeof t === 'number' && Number.isFinite(t))
    ? counted.reduce((a: number, b) => a + (b ?? 0), 0)
    : undefined
  return { vectors: results.flatMap((r) => r.embeddings), tokens }
}

const notRetryable = { kind: 'invalid_reply', retryable: false } as const
const invalidReplyKind = { kind: 'invalid_reply', retryable: true } as const

const statedTokens = (usage: LanguageModelV3Usage | undefined): StatedTokens | undefined =>
  usage === undefined ? undefined : { prompt: usage.inputTokens.total, completion: usage.outputTokens.total }

/** The caller's signal plus the request timeout, remembering which of the two fired. */
function timed(outer: AbortSignal | undefined, timeoutMs: number) {
  const own = callSignal(outer)
  const timeout = AbortSignal.timeout(timeoutMs)
  const signal = own.signal === undefined ? timeout : AbortSignal.any([own.signal, timeout])
  return { signal, timedOut: () => timeout.aborted, release: own.release }
}

function callOptions(call: ChatCall, jsonMode: boolean, signal: AbortSignal): LanguageModelV3CallOptions {
  const format = call.responseFormat
  const messages = format !== undefined && !jsonMode ? promptedJson(call.messages, format) : call.messages
  const p = call.params
  const num = (key: string) => (typeof p[key] === 'number' ? (p[key] as number) : undefined)
  const stop = p.stop
  return {
    prompt: toPrompt(messages),
    abortSignal: signal,
    maxOutputTokens: num('max_completion_tokens') ?? num('max_tokens'),
    temperature: num('temperature'),
    topP: num('top_p'),
    topK: num('top_k'),
    seed: num('seed'),
    frequencyPenalty: num('frequency_penalty'),
    presencePenalty: num('presence_penalty'),
    stopSequences: typeof stop === 'string' ? [stop] : Array.isArray(stop) ? stop.map(String) : undefined,
    ...(format === undefined || !jsonMode
      ? {}
      : {
          responseFormat:
            format.type === 'json_schema'
              ? { type: 'json', schema: format.schema as never, name: format.name }
              : { type: 'json' },
        }),
  }
}

/** System messages stay system messages (the SDKs move them where each protocol wants them). */
function toPrompt(messages: readonly ChatMessage[]): LanguageModelV3Prompt {
  return messages.map((m) =>
    m.role === 'system'
      ? { role: 'system', content: m.content }
      : { role: m.role, content: [{ type: 'text', text: m.content }] },
  )
}

function toFailure(
  error: unknown,
  outer: AbortSignal | undefined,
  request: { timedOut: () => boolean },
  options: AiSdkOptions,
): AttemptFailure {
  if (error instanceof AttemptFailure) return error
  if (outer?.aborted === true) return new AttemptFailure('request aborted', { kind: 'aborted', retryable: false })
  if (request.timedOut()) return new AttemptFailure('request timed out', { kind: 'timeout', retryable: true })
  if (APICallError.isInstance(error) && typeof error.statusCode === 'number') {
    const status = error.statusCode
    // Auth replies may echo the key: their text is not passed on (as in client.ts).
    const auth = status === 401 || status === 403
    return new AttemptFailure(auth ? `HTTP ${status}` : `HTTP ${status}: ${redact(error.message, options.secrets)}`, {
      kind: 'http',
      status,
      retryable: isRetryableStatus(status) && !isCapacityFailure(status, error.message),
      retryAfterMs: retryAfterMs(error.responseHeaders === undefined ? undefined : new Headers(error.responseHeaders)),
    })
  }
  if (APICallError.isInstance(error) || (error instanceof TypeError && error.message === 'fetch failed')) {
    const cause = error instanceof Error ? error : new Error(String(error))
    const unreachable = unreachableCode(cause) ?? unreachableCode(new Error('', { cause }))
    if (unreachable !== undefined)
      return new AttemptFailure(
        `cannot reach ${options.endpoint} (${unreachable}); is the server running and api_base right?`,
        { kind: 'connection', retryable: false },
      )
    return new AttemptFailure(`connection error (${redact(cause.message, options.secrets)})`, {
      kind: 'connection',
      retryable: true,
    })
  }
  // A body the SDK could not parse or validate: the server misbehaved once, another attempt may work.
  const text = error instanceof Error ? error.message : String(error)
  return new AttemptFailure(`invalid reply (${redact(text, options.secrets).slice(0, 300)})`, invalidReplyKind)
}

function redact(text: string, secrets: readonly string[]): string {
  let out = redactUrls(text)
  for (const secret of secrets) if (secret.length >= 4) out = out.split(secret).join('***')
  return out
}
