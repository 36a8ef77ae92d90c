/**
 * Transport over the `openai` package: chat completions (plain and streamed) and embeddings against
 * api.openai.com, any OpenAI-compatible api_base, or Azure OpenAI. Every failure becomes an
 * AttemptFailure saying whether it is worth retrying; the SDK's own retries are off.
 * The SDK is imported on the first call, so a run that never calls such a model (an offline query,
 * a model that only answers from the cache) does not pay for loading it.
 */
import type OpenAI from 'openai'
import { causeChain } from '../errors.js'
import { callSignal } from './call-signal.js'
import { AttemptFailure, BlankReplyFailure, isCapacityFailure, isRetryableStatus } from './failure.js'
import { floatsFromBytes } from './float-bytes.js'
import { httpFetch } from './http-fetch.js'
import { parseStructuredReply, promptedJson } from './json.js'
import { checkedEmbedding, meterReply, replyTokens, type StatedTokens } from './reply-tokens.js'
import { redactUrls, safeUrl } from './safe-url.js'
import type { ChatCall, ChatReply, ChatTransport, EmbedCall, EmbedReply, EmbedTransport } from './transport.js'
import type { ResponseFormat } from './types.js'

export interface ClientOptions {
  provider: 'openai' | 'azure'
  model: string
  apiKey: string | undefined
  apiBase: string | undefined
  apiVersion: string | undefined
  azureDeploymentName: string | undefined
  /** Azure with Entra ID (managed identity): a fresh bearer token per request instead of a key. */
  azureTokenProvider?: () => Promise<string>
  /** False for servers without `response_format`: the JSON instruction goes in the prompt instead. */
  jsonMode?: boolean
  /** Per-request timeout in milliseconds. */
  timeoutMs: number
  /** Embedding size to request from the provider (omitted when undefined). */
  dimensions: number | undefined
  /** Counts prompt tokens when a server omits usage (some OpenAI-compatible servers do). */
  countTokens: (text: string) => number
}

type OpenAIModule = typeof import('openai')

export function createClient(options: ClientOptions): ChatTransport & EmbedTransport {
  let loaded: Promise<{ sdk: OpenAI; errors: OpenAIModule['OpenAI'] }> | undefined
  const client = () =>
    (loaded ??= import('openai').then((module) => ({ sdk: sdkFor(module, options), errors: module.OpenAI })))

  const endpoint = safeUrl(options.apiBase ?? 'https://api.openai.com/v1')
  const jsonMode = options.jsonMode !== false
  let wireFormat: 'base64' | 'float' = 'base64'

  return {
    async complete(call: ChatCall): Promise<ChatReply> {
      let reply: OpenAI.ChatCompletion
      const { sdk, errors } = await client()
      const own = callSignal(call.signal)
      try {
        reply = await sdk.chat.completions.create(
          chatBody(options.model, call, false, jsonMode) as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming,
          { signal: own.signal },
        )
      } catch (error) {
        throw toFailure(error, call.signal, endpoint, errors)
      } finally {
        own.release()
      }
      return chatReplyFrom(reply, call, options.countTokens)
    },

    async *stream(call: ChatCall): AsyncIterable<string> {
      yield* streamChat(await client(), call, { options, endpoint, jsonMode })
    },

    async embed(call: EmbedCall): Promise<EmbedReply> {
      const { sdk, errors } = await client()
      const ask = (format: 'base64' | 'float') =>
        embedOnce(sdk, embedBody(options.model, call.input, options.dimensions, format), call.signal)
      let reply: OpenAI.CreateEmbeddingResponse
      try {
        reply = await ask(wireFormat)
      } catch (error) {
        if (wireFormat === 'float' || !refusesBase64(error, errors))
          throw toFailure(error, call.signal, endpoint, errors)
        // A server that knows only floats: ask it in floats from now on.
        wireFormat = 'float'
        reply = await ask(wireFormat).catch((again: unknown) => {
          throw toFailure(again, call.signal, endpoint, errors)
        })
      }
      return embedReplyFrom(reply, call, options.countTokens)
    },
  }
}

async function embedOnce(
  sdk: OpenAI,
  body: ReturnType<typeof embedBody>,
  signal: AbortSignal | undefined,
): Promise<OpenAI.CreateEmbeddingResponse> {
  const own = callSignal(signal)
  try {
    return await sdk.embeddings.create(body, { signal: own.signal })
  } finally {
    own.release()
  }
}

/** A 400 or 422 that names the encoding: the server does not take `encoding_format: base64`. */
function refusesBase64(error: unknown, errors: OpenAIModule['OpenAI']): boolean {
  return (
    error instanceof errors.APIError &&
    (error.status === 400 || error.status === 422) &&
    /encoding_format|base64/i.test(error.message)
  )
}

/** A streamed chat reply's deltas; its tokens are metered once the stream ends, however it ends. */
async function* streamChat(
  { sdk, errors }: { sdk: OpenAI; errors: OpenAIModule['OpenAI'] },
  call: ChatCall,
  { options, endpoint, jsonMode }: { options: ClientOptions; endpoint: string; jsonMode: boolean },
): AsyncIterable<string> {
  let text = ''
  let usage: OpenAI.CompletionUsage | undefined
  let opened = false
  const own = callSignal(call.signal)
  try {
    const stream = await sdk.chat.completions.create(
      chatBody(options.model, call, true, jsonMode) as unknown as OpenAI.ChatCompletionCreateParamsStreaming,
      { signal: own.signal },
    )
    opened = true
    for await (const chunk of stream) {
      usage = chunk.usage ?? usage
      const delta = chunk.choices?.[0]?.delta?.content
      if (delta) {
        text += delta
        yield delta
      }
    }
    // A stream that ends without a word is as unusable as an empty reply (see replyContent).
    if (text.trim() === '') throw new BlankReplyFailure('the streamed reply has no content')
  } catch (error) {
    throw toFailure(error, call.signal, endpoint, errors)
  } finally {
    own.release()
    if (opened) meterReply(call, text, statedTokens(usage), options.countTokens)
  }
}

const statedTokens = (usage: OpenAI.CompletionUsage | null | undefined): StatedTokens | undefined =>
  usage == null ? undefined : { prompt: usage.prompt_tokens, completion: usage.completion_tokens }

/**
 * A chat completion body (from the SDK, or one line of a provider batch) as the reply callers get:
 * tokens metered first (they are spent even when the reply then fails validation), then the content
 * checked and, for structured output, parsed; an unusable reply is a retryable AttemptFailure.
 */
export function chatReplyFrom(reply: unknown, call: ChatCall, countTokens: (text: string) => number): ChatReply {
  const stated =
    typeof reply === 'object' && reply !== null ? (reply as Partial<OpenAI.ChatCompletion>).usage : undefined
  const content = textOf(reply)
  const usage = replyTokens(call, content ?? '', statedTokens(stated), countTokens)
  if (stated != null || content !== undefined) call.meter.tokens(usage.promptTokens, usage.completionTokens)
  if (content === undefined || content.trim() === '') throw invalidReplyOf(reply)
  if (call.responseFormat === undefined) return { content, usage }
  return { content, usage, json: parseStructuredReply(content, call.responseFormat) }
}

/** An embeddings body (from the SDK or a batch line) as vectors in input order, metered; a short or empty reply is retryable. */
export function embedReplyFrom(reply: unknown, call: EmbedCall, countTokens: (text: string) => number): EmbedReply {
  const body = (typeof reply === 'object' && reply !== null ? reply : {}) as Partial<OpenAI.CreateEmbeddingResponse>
  const data = [...(Array.isArray(body.data) ? body.data : [])].sort((a, b) => a.index - b.index)
  return checkedEmbedding(
    call,
    data.map((d) => vectorFromWire(d.embedding as unknown)),
    body.usage?.prompt_tokens,
    countTokens,
  )
}

/**
 * A vector as the wire carries it: the base64 of little-endian float32 values (what we ask for), or a
 * JSON array of numbers from a server that ignores `encoding_format`. Anything else passes through for
 * checkedEmbedding to refuse.
 */
export function vectorFromWire(embedding: unknown): unknown {
  if (typeof embedding !== 'string') return embedding
  const bytes = Buffer.from(embedding, 'base64')
  return bytes.length % 4 === 0 ? floatsFromBytes(bytes, 4) : []
}

/**
 * The embeddings request body, the same for a synchronous call and a batch line. Vectors travel as
 * base64 float32 (about a third of the JSON's bytes, no number parsing); given explicitly, the openai
 * SDK hands the string back undecoded and vectorFromWire reads it, whatever format the server chose.
 */
export function embedBody(
  model: string,
  input: readonly string[],
  dimensions: number | undefined,
  format: 'base64' | 'float' = 'base64',
) {
  return {
    model,
    input: [...input],
    encoding_format: format,
    ...(dimensions === undefined ? {} : { dimensions }),
  }
}

function sdkFor({ OpenAI, AzureOpenAI }: OpenAIModule, options: ClientOptions): OpenAI {
  return options.provider === 'azure'
    ? new AzureOpenAI({
        ...(options.azureTokenProvider === undefined
          ? { apiKey: options.apiKey }
          : { azureADTokenProvider: options.azureTokenProvider }),
        endpoint: options.apiBase,
        apiVersion: options.apiVersion,
        deployment: options.azureDeploymentName ?? options.model,
        maxRetries: 0,
        timeout: options.timeoutMs,
        fetch: httpFetch,
      })
    : new OpenAI({
        // Local OpenAI-compatible servers accept any key; the SDK refuses to start without one.
        apiKey: options.apiKey ?? 'no-key',
        baseURL: options.apiBase,
        maxRetries: 0,
        timeout: options.timeoutMs,
        fetch: httpFetch,
      })
}

/** The message text of a chat completion, or undefined when the reply carries none. */
function textOf(reply: unknown): string | undefined {
  const choices = typeof reply === 'object' && reply !== null ? (reply as { choices?: unknown }).choices : undefined
  const content = Array.isArray(choices)
    ? (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content
    : undefined
  return typeof content === 'string' ? content : undefined
}

/**
 * Servers misbehave in ways the SDK accepts: an HTML error page with status 200 (the SDK hands back a
 * string), no `choices`, `content: null`, or an empty message. Each is an invalid reply, retried and
 * never cached, rather than an empty answer that loses data silently.
 */
function invalidReplyOf(reply: unknown): AttemptFailure {
  if (typeof reply !== 'object' || reply === null)
    return invalidReply(`the reply is not a chat completion (${describeBody(reply)})`)
  const choices = (reply as { choices?: unknown }).choices
  if (!Array.isArray(choices) || choices.length === 0) return invalidReply('the reply has no choices')
  const content = (choices[0] as { message?: { content?: unknown } } | undefined)?.message?.content
  if (typeof content !== 'string')
    return invalidReply(`the reply's message content is ${content === null ? 'null' : typeof content}`)
  return new BlankReplyFailure("the reply's message content is empty")
}

function describeBody(body: unknown): string {
  if (typeof body !== 'string') return String(body)
  const flat = body.replace(/\s+/g, ' ').trim()
  return flat === '' ? 'an empty body' : `body starts "${flat.length > 60 ? `${flat.slice(0, 60)}…` : flat}"`
}

function invalidReply(message: string): AttemptFailure {
  return new AttemptFailure(`invalid reply: ${message}`, { kind: 'invalid_reply', retryable: true })
}

export function chatBody(model: string, call: ChatCall, stream: boolean, jsonMode: boolean): Record<string, unknown> {
  const format = call.responseFormat
  const messages = format !== undefined && !jsonMode ? promptedJson(call.messages, format) : call.messages
  return {
    ...call.params,
    model,
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    ...(format === undefined || !jsonMode ? {} : { response_format: wireFormat(format) }),
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
  }
}

function wireFormat(format: ResponseFormat): Record<string, unknown> {
  if (format.type === 'json_object') return { type: 'json_object' }
  return { type: 'json_schema', json_schema: { name: format.name, schema: format.schema } }
}

/** Classifies any error thrown by the SDK (or by fetch underneath it). */
function toFailure(
  error: unknown,
  signal: AbortSignal | undefined,
  endpoint: string,
  OpenAI: OpenAIModule['OpenAI'],
): AttemptFailure {
  if (error instanceof AttemptFailure) return error
  if (signal?.aborted === true || error instanceof OpenAI.APIUserAbortError) {
    return new AttemptFailure('request aborted', { kind: 'aborted', retryable: false, cause: error })
  }
  if (error instanceof OpenAI.APIConnectionTimeoutError) {
    return new AttemptFailure('request timed out', { kind: 'timeout', retryable: true, cause: error })
  }
  if (error instanceof OpenAI.APIConnectionError) {
    const unreachable = unreachableCode(error)
    // Nothing listens there or the name does not resolve: retrying for minutes would not change that.
    if (unreachable !== undefined) {
      return new AttemptFailure(
        `cannot reach ${endpoint} (${unreachable}); is the server running and api_base right?`,
        {
          kind: 'connection',
          retryable: false,
          cause: error,
        },
      )
    }
    return new AttemptFailure(`connection error (${causeText(error)})`, {
      kind: 'connection',
      retryable: true,
      cause: error,
    })
  }
  if (error instanceof OpenAI.APIError && typeof error.status === 'number') {
    const status = error.status
    // Auth replies echo (part of) the key, so neither their text nor the SDK error holding it is passed on.
    const auth = status === 401 || status === 403
    const message = auth ? '' : serverMessage(error)
    return new AttemptFailure(auth ? `HTTP ${status}` : `HTTP ${status}: ${message}`, {
      kind: 'http',
      status,
      retryable: isRetryableStatus(status) && !isCapacityFailure(status, message),
      retryAfterMs: retryAfterMs(error.headers),
      cause: auth ? undefined : error,
    })
  }
  // A body cut short or not JSON at all: the server misbehaved once, so another attempt may work.
  return new AttemptFailure(`invalid reply (${redactUrls(error instanceof Error ? error.message : String(error))})`, {
    kind: 'invalid_reply',
    retryable: true,
    cause: error,
  })
}

function serverMessage(error: InstanceType<typeof OpenAI.APIError>): string {
  const body = error.error as { message?: unknown } | undefined
  return redactUrls(typeof body?.message === 'string' ? body.message : error.message)
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EAI_NONAME', 'EHOSTUNREACH', 'ENETUNREACH'])

/** The error code somewhere down the cause chain (fetch wraps the socket error) when it means "no server there". */
export function unreachableCode(error: Error): string | undefined {
  for (const { code, message } of causeChain(error.cause)) {
    if (typeof code === 'string' && UNREACHABLE.has(code)) return code
    // undici refuses some ports outright ("bad port") without trying to connect.
    if (message === 'bad port') return 'bad port'
  }
  return undefined
}

function causeText(error: Error): string {
  const cause = error.cause as { code?: string; message?: string } | undefined
  return redactUrls(cause?.code ?? cause?.message ?? error.message)
}

/** `retry-after-ms` (OpenAI/Azure), else `retry-after` as seconds or an HTTP date. */
export function retryAfterMs(headers: Headers | undefined): number | undefined {
  const ms = headers?.get('retry-after-ms')
  if (ms != null && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const value = headers?.get('retry-after')
  if (value == null || value.trim() === '') return undefined
  const seconds = Number(value)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(value)
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now())
}
