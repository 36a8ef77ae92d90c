/**
 * A real OpenAI-protocol HTTP server on 127.0.0.1 for tests: chat completions (plain and SSE),
 * embeddings, models and Azure deployment paths, with pluggable responders, latency and faults.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { delay, normaliseMessages, readBody, sendBroken, sendHtml, sendJson, sendTruncated } from './http.js'
import type { AddressInfo } from 'node:net'
import type { JsonValue } from '../../../src/model/schema.js'
import { classifyMessages, type PromptKind } from './classify.js'
import { embeddingFor, encodeBase64 } from './embeddings.js'
import { FaultPicker, type FaultKind, type FaultOptions } from './faults.js'
import { REPLAY_RESPONDER } from './replay.js'
import { REALISTIC_RESPONDER } from './realistic.js'
import { createFakeBatchApi, type FakeBatchApi, type FakeBatchOptions } from './batch.js'
import { BUILTIN_RESPONDER, fallbackReply, type Responder, type ResponderRequest } from './responders.js'
import { countTokens } from './tokens.js'

export type { PromptKind } from './classify.js'
export { classifyMessages } from './classify.js'
export type { Responder, ResponderRequest } from './responders.js'
export { replayExpectations } from './replay.js'
export { fakeModelSettingsYaml } from './settings.js'
export { fakeEmbedding } from './embeddings.js'

export interface FakeLlmOptions {
  /** Tried in order before the built-in ones. */
  responders?: Responder[]
  /** Replay answers from ../shared/reference/christmas-carol-index (default false). */
  replay?: 'christmas-carol' | false
  /** Default 1536; a request's `dimensions` wins. */
  embeddingDimension?: number
  /** `extraMs` adds a delay chosen per chat request (one slow call among fast ones). */
  latency?: { fixedMs?: number; perTokenMs?: number; extraMs?: (req: ResponderRequest) => number }
  faults?: FaultOptions
  /** Exact input text → vector. */
  fixedEmbeddings?: Record<string, number[]>
  /** Embedding requests with more inputs than this get 413 (as servers with a batch limit do). */
  maxEmbeddingInputs?: number
  /** The reply to a request over maxEmbeddingInputs (default 413): e.g. llama.cpp's 500 "input is too large". */
  overCapacityReply?: { status: number; message: string }
  /** Refuse `encoding_format: base64` with a 400, as servers that only write JSON floats do. */
  floatEmbeddingsOnly?: boolean
  /** Port to listen on (default 0: a free one). */
  port?: number
  /** A reasoning model's thinking, sent as the message's `reasoning_content` beside its content. */
  reasoning?: (req: ResponderRequest) => string | undefined
  /** The Batch API (files, batches): how many polls before a batch ends, and how it ends. */
  batch?: FakeBatchOptions
  /** Extraction and report replies of the sizes a real model writes (realistic.ts), for cost benchmarks. */
  realistic?: boolean
}

interface RecordedRequest {
  id: number
  path: string
  /** Query string as received (`?api-version=…` for Azure), '' when none. */
  search: string
  /** Request headers (auth checks of the provider tests). */
  headers: Record<string, string | string[] | undefined>
  kind: PromptKind | 'embedding' | 'models'
  body: JsonValue
  /** HTTP status sent; 0 while in flight or when the request hung. */
  status: number
  startedAt: number
  endedAt: number
  stream: boolean
  model: string
  /** The injected fault, if any. */
  fault?: FaultKind
  /** Set when the request answers a line of this batch (the Batch API's lines go through the synchronous routes). */
  batchLine?: string
}

export interface FakeLlm {
  /** `http://127.0.0.1:PORT/v1` */
  baseUrl: string
  port: number
  requests: RecordedRequest[]
  /** The Batch API's batches and calls. */
  batchApi: Pick<FakeBatchApi, 'batches' | 'calls'>
  setFaults(faults: FaultOptions | undefined): void
  close(): Promise<void>
}

interface Handling {
  res: ServerResponse
  record: RecordedRequest
  body: Record<string, unknown>
  fault: FaultKind | undefined
  options: FakeLlmOptions
}

export async function startFakeLlm(options: FakeLlmOptions = {}): Promise<FakeLlm> {
  const requests: RecordedRequest[] = []
  const faults = new FaultPicker(options.faults)
  const responders = [
    ...(options.responders ?? []),
    ...(options.replay === 'christmas-carol' ? [REPLAY_RESPONDER] : []),
    ...(options.realistic === true ? [REALISTIC_RESPONDER] : []),
    BUILTIN_RESPONDER,
  ]
  const batchApi = createFakeBatchApi(() => `http://127.0.0.1:${port}`, options.batch)
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error), type: 'server_error' } })
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Arrival time, before the body is read: the closest the server can get to when the client sent it.
    const startedAt = Date.now()
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const raw = await readBody(req)
    if (batchApi.handles(req.method, url.pathname)) return batchApi.handle(req, res, url, raw)
    let body: Record<string, unknown> = {}
    try {
      body = raw === '' ? {} : (JSON.parse(raw) as Record<string, unknown>)
    } catch {
      sendJson(res, 400, { error: { message: 'invalid JSON body', type: 'invalid_request_error' } })
      return
    }
    const azure = /^\/openai\/deployments\/([^/]+)\/(chat\/completions|embeddings)$/.exec(url.pathname)
    const endpoint = azure?.[2] ?? url.pathname.replace(/^\/v1\//, '')
    const model = azure?.[1] ?? (typeof body.model === 'string' ? body.model : '')
    const record: RecordedRequest = {
      id: requests.length,
      path: url.pathname,
      search: url.search,
      headers: req.headers,
      kind: 'unknown',
      body: body as JsonValue,
      status: 0,
      startedAt,
      endedAt: 0,
      stream: body.stream === true,
      model,
      ...(typeof req.headers['x-fake-batch-line'] === 'string' ? { batchLine: req.headers['x-fake-batch-line'] } : {}),
    }
    requests.push(record)
    // A reply ends when its last byte is written; an abandoned one when its connection closes.
    res.on('finish', () => {
      record.endedAt = Date.now()
    })
    res.on('close', () => {
      if (record.endedAt === 0) record.endedAt = Date.now()
      if (!res.writableFinished) record.status = 0
    })
    const finish = (status: number) => {
      record.status = status
    }
    if (azure !== null && url.searchParams.get('api-version') === null) {
      finish(400)
      return sendJson(res, 400, {
        error: { message: 'api-version query parameter is required', type: 'invalid_request_error' },
      })
    }
    const key = (req.headers['api-key'] as string | undefined) ?? req.headers.authorization?.replace(/^Bearer\s+/i, '')
    if (key?.startsWith('bad-key') === true) {
      finish(401)
      // Like OpenAI, echo the presented key, so a client that passed this text on would leak it.
      return sendJson(res, 401, {
        error: {
          message: `Incorrect API key provided: ${echoedKey(key)}. You can find your API key at https://platform.openai.com/account/api-keys.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      })
    }
    if (req.method === 'GET' && endpoint === 'models') {
      record.kind = 'models'
      finish(200)
      return sendJson(res, 200, {
        object: 'list',
        data: ['gpt-4.1', 'gpt-4.1-mini', 'text-embedding-3-small'].map((id) => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'fake',
        })),
      })
    }
    if (req.method !== 'POST' || (endpoint !== 'chat/completions' && endpoint !== 'embeddings')) {
      finish(404)
      return sendJson(res, 404, { error: { message: `unknown path ${url.pathname}`, type: 'invalid_request_error' } })
    }
    const fault = faults.next()
    if (fault !== undefined) record.fault = fault
    const h: Handling = { res, record, body, fault, options }
    if (endpoint === 'embeddings') {
      record.kind = 'embedding'
      return embeddings(h, finish)
    }
    return chat(h, finish)
  }

  function chat(h: Handling, finish: (status: number) => void): Promise<void> | void {
    const messages = normaliseMessages(h.body.messages)
    const kind = classifyMessages(messages)
    h.record.kind = kind
    if (commonFault(h, finish)) return
    let content: string | undefined
    for (const responder of responders) {
      content = responder({ kind, messages, body: h.body })
      if (content !== undefined) break
    }
    content ??= fallbackReply(h.body)
    const structured = h.body.response_format !== undefined
    if (h.fault === 'malformed' && structured) content = content.slice(0, Math.max(1, Math.floor(content.length / 2)))
    if (h.fault === 'wrong_shape' && structured) content = '{"unexpected": true}'
    const usage = {
      prompt_tokens: 3 + messages.reduce((n, m) => n + 3 + countTokens(m.role) + countTokens(m.content), 0),
      completion_tokens: countTokens(content),
    }
    const extra = h.options.latency?.extraMs?.({ kind, messages, body: h.body }) ?? 0
    const latency =
      (h.options.latency?.fixedMs ?? 0) + (h.options.latency?.perTokenMs ?? 0) * usage.completion_tokens + extra
    const reasoning = h.options.reasoning?.({ kind, messages, body: h.body })
    return delay(latency).then(() =>
      h.record.stream ? sendStream(h, content, usage, finish) : sendCompletion(h, content, usage, finish, reasoning),
    )
  }

  function sendCompletion(
    h: Handling,
    content: string,
    usage: Usage,
    finish: (s: number) => void,
    reasoning?: string,
  ): void {
    const message = {
      role: 'assistant',
      content,
      refusal: null,
      ...(reasoning === undefined ? {} : { reasoning_content: reasoning }),
    }
    const payload = {
      id: `chatcmpl-fake-${h.record.id}`,
      object: 'chat.completion',
      created: Math.floor(h.record.startedAt / 1000),
      model: h.record.model,
      choices: [{ index: 0, message, finish_reason: 'stop', logprobs: null }],
      usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
    }
    if (h.fault === 'malformed' && h.body.response_format === undefined) {
      sendBroken(h.res, finish)
      return
    }
    if (h.fault === 'html') {
      sendHtml(h.res, finish)
      return
    }
    if (h.fault === 'empty_choices') payload.choices = []
    if (h.fault === 'null_content') (payload.choices[0]!.message as { content: string | null }).content = null
    if (h.fault === 'truncated') {
      sendTruncated(h.res, JSON.stringify(payload), finish)
      return
    }
    finish(200)
    sendJson(h.res, 200, payload)
  }

  function sendStream(h: Handling, content: string, usage: Usage, finish: (s: number) => void): void {
    const base = {
      id: `chatcmpl-fake-${h.record.id}`,
      object: 'chat.completion.chunk',
      created: Math.floor(h.record.startedAt / 1000),
      model: h.record.model,
    }
    if (h.fault === 'html') {
      sendHtml(h.res, finish)
      return
    }
    // A stream of no content: what empty choices or null content look like when streamed.
    const pieces =
      h.fault === 'empty_choices' || h.fault === 'null_content' ? [] : (content.match(/[\s\S]{1,16}/g) ?? [])
    finish(200)
    h.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    const send = (data: unknown) => h.res.write(`data: ${JSON.stringify(data)}\n\n`)
    send({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }] })
    pieces.forEach((piece, i) => {
      if (h.fault === 'truncated' && i === Math.floor(pieces.length / 2)) h.res.destroy()
      if (h.res.destroyed) return
      send({ ...base, choices: [{ index: 0, delta: { content: piece }, finish_reason: null }] })
    })
    if (h.res.destroyed) return
    if (h.fault === 'malformed' && h.body.response_format === undefined) h.res.write('data: {"choices": [\n\n')
    send({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
    const streamOptions = h.body.stream_options as { include_usage?: boolean } | undefined
    if (streamOptions?.include_usage === true)
      send({ ...base, choices: [], usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens } })
    h.res.end('data: [DONE]\n\n')
  }

  function embeddings(h: Handling, finish: (status: number) => void): Promise<void> | void {
    if (commonFault(h, finish)) return
    const input = h.body.input
    const texts =
      typeof input === 'string'
        ? [input]
        : Array.isArray(input)
          ? input.map((x) => (typeof x === 'string' ? x : JSON.stringify(x)))
          : []
    if (h.options.maxEmbeddingInputs !== undefined && texts.length > h.options.maxEmbeddingInputs) {
      const over = h.options.overCapacityReply ?? {
        status: 413,
        message: `at most ${h.options.maxEmbeddingInputs} inputs per request`,
      }
      finish(over.status)
      return sendJson(h.res, over.status, { error: { message: over.message, type: 'invalid_request_error' } })
    }
    const base64 = h.body.encoding_format === 'base64'
    if (base64 && h.options.floatEmbeddingsOnly === true) {
      finish(400)
      const message = "encoding_format: 'base64' is not supported, use 'float'"
      return sendJson(h.res, 400, { error: { message, type: 'invalid_request_error' } })
    }
    const dimension = typeof h.body.dimensions === 'number' ? h.body.dimensions : (h.options.embeddingDimension ?? 1536)
    const data = texts.map((text, index) => {
      const vector = h.options.fixedEmbeddings?.[text] ?? embeddingFor(text, dimension)
      return { object: 'embedding', index, embedding: base64 ? encodeBase64(vector) : vector }
    })
    const promptTokens = texts.reduce((n, t) => n + countTokens(t), 0)
    const payload = {
      object: 'list',
      data,
      model: h.record.model,
      usage: { prompt_tokens: promptTokens, total_tokens: promptTokens },
    }
    return delay(h.options.latency?.fixedMs ?? 0).then(() => {
      if (h.fault === 'malformed') return sendBroken(h.res, finish)
      if (h.fault === 'html') return sendHtml(h.res, finish)
      if (h.fault === 'truncated') return sendTruncated(h.res, JSON.stringify(payload), finish)
      finish(200)
      sendJson(h.res, 200, payload)
    })
  }

  /** 429, 500 and hang apply to every endpoint; returns true when the request was answered by a fault. */
  function commonFault(h: Handling, finish: (status: number) => void): boolean {
    if (h.fault === '429') {
      finish(429)
      const retryAfter = String(faults.retryAfterSeconds)
      sendJson(
        h.res,
        429,
        { error: { message: 'Rate limit reached (fake).', type: 'rate_limit_error', code: 'rate_limit_exceeded' } },
        { 'retry-after': retryAfter },
      )
      return true
    }
    if (h.fault === '500') {
      finish(500)
      sendJson(h.res, 500, { error: { message: 'The server had an error (fake).', type: 'server_error' } })
      return true
    }
    // A hung request is never answered; the client's timeout ends it and close() destroys the socket.
    return h.fault === 'hang'
  }

  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    batchApi,
    setFaults: (f) => faults.configure(f),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** OpenAI shows a short key whole and a long one as its first 3 and last 4 characters around stars. */
function echoedKey(key: string): string {
  return key.length <= 12 ? key : `${key.slice(0, 3)}${'*'.repeat(key.length - 7)}${key.slice(-4)}`
}

interface Usage {
  prompt_tokens: number
  completion_tokens: number
}
