/**
 * Real HTTP servers on 127.0.0.1 speaking other providers' protocols: Anthropic Messages, Gemini
 * generateContent / embedContent, Bedrock Converse / InvokeModel. Each records what it received (URL,
 * headers, body) and answers by asking an inner OpenAI-protocol fake (startFakeLlm) the same question,
 * so every prompt kind gets the same format-correct reply as over the OpenAI path.
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { listenOnLoopback } from '../loopback-server.js'
import { readBody, sendJson } from './http.js'
import { type FakeLlm, type FakeLlmOptions, startFakeLlm } from './index.js'

export type FakeProtocol = 'anthropic' | 'gemini' | 'bedrock'

interface ProtocolRequest {
  method: string
  /** Path and query as received. */
  url: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

export interface FakeProvider {
  /** What to give as api_base: `…/v1` (anthropic), `…/v1beta` (gemini), the host (bedrock). */
  baseUrl: string
  requests: ProtocolRequest[]
  /** The OpenAI-protocol fake that writes the answers (its requests show what was asked). */
  inner: FakeLlm
  close(): Promise<void>
}

interface OpenAiMessage {
  role: string
  content: string
}

const text = (parts: unknown): string =>
  typeof parts === 'string'
    ? parts
    : Array.isArray(parts)
      ? parts.map((p: { text?: unknown }) => (typeof p.text === 'string' ? p.text : '')).join('')
      : ''

export async function startFakeProvider(protocol: FakeProtocol, options: FakeLlmOptions = {}): Promise<FakeProvider> {
  const inner = await startFakeLlm(options)
  const requests: ProtocolRequest[] = []

  async function ask(messages: OpenAiMessage[], json: boolean) {
    const res = await fetch(`${inner.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        model: 'fake',
        messages,
        ...(json ? { response_format: { type: 'json_object' } } : {}),
      }),
    })
    const reply = (await res.json()) as {
      choices?: Array<{ message: { content: string } }>
      usage?: { prompt_tokens: number; completion_tokens: number }
      error?: unknown
    }
    return { status: res.status, reply }
  }

  async function embed(input: string[], dimensions?: number): Promise<{ status: number; vectors: number[][] }> {
    const res = await fetch(`${inner.baseUrl}/embeddings`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'fake', input, ...(dimensions === undefined ? {} : { dimensions }) }),
    })
    const reply = (await res.json()) as { data?: Array<{ embedding: number[] }> }
    return { status: res.status, vectors: (reply.data ?? []).map((d) => d.embedding) }
  }

  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } })
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    const body = (raw === '' ? {} : JSON.parse(raw)) as Record<string, unknown>
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    const key = req.headers['x-api-key'] ?? req.headers['x-goog-api-key']
    if (typeof key === 'string' && key.startsWith('bad-key'))
      // Echo the key, as some providers do, so a client passing this text on would leak it.
      return sendJson(res, 401, {
        type: 'error',
        error: { type: 'authentication_error', message: `invalid key ${key}` },
      })
    if (protocol === 'anthropic') return anthropic(path, body, res)
    if (protocol === 'gemini') return gemini(path, body, res)
    return bedrock(path, body, res)
  }

  async function anthropic(path: string, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    if (path !== '/v1/messages') return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error' } })
    const system = text(body.system)
    const messages = [
      ...(system === '' ? [] : [{ role: 'system', content: system }]),
      ...(body.messages as Array<{ role: string; content: unknown }>).map((m) => ({
        role: m.role,
        content: text(m.content),
      })),
    ]
    const { status, reply } = await ask(messages, false)
    if (status !== 200)
      return sendJson(res, status, { type: 'error', error: { type: 'api_error', message: `upstream ${status}` } })
    const content = reply.choices?.[0]?.message.content ?? ''
    const usage = { input_tokens: reply.usage?.prompt_tokens ?? 0, output_tokens: reply.usage?.completion_tokens ?? 0 }
    const message = { id: 'msg_fake', type: 'message', role: 'assistant', model: body.model }
    if (body.stream !== true) {
      return sendJson(res, 200, {
        ...message,
        content: [{ type: 'text', text: content }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage,
      })
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const send = (event: string, data: unknown) => res.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
    send('message_start', {
      type: 'message_start',
      message: { ...message, content: [], stop_reason: null, usage: { ...usage, output_tokens: 0 } },
    })
    send('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } })
    for (const piece of content.match(/[\s\S]{1,16}/g) ?? [])
      send('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: piece } })
    send('content_block_stop', { type: 'content_block_stop', index: 0 })
    send('message_delta', {
      type: 'message_delta',
      delta: { stop_reason: 'end_turn', stop_sequence: null },
      usage: { output_tokens: usage.output_tokens },
    })
    send('message_stop', { type: 'message_stop' })
    res.end()
  }

  async function gemini(path: string, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const match =
      /^\/v1beta\/models\/([^:]+):(generateContent|streamGenerateContent|embedContent|batchEmbedContents)$/.exec(path)
    if (match === null) return sendJson(res, 404, { error: { code: 404, message: `unknown path ${path}` } })
    const method = match[2]!
    if (method === 'embedContent' || method === 'batchEmbedContents') {
      const items =
        method === 'embedContent'
          ? [body as { content: { parts: unknown }; outputDimensionality?: number }]
          : (body.requests as Array<{ content: { parts: unknown }; outputDimensionality?: number }>)
      const { status, vectors } = await embed(
        items.map((r) => text(r.content.parts)),
        items[0]?.outputDimensionality,
      )
      if (status !== 200) return sendJson(res, status, { error: { code: status, message: `upstream ${status}` } })
      return sendJson(
        res,
        200,
        method === 'embedContent'
          ? { embedding: { values: vectors[0] } }
          : { embeddings: vectors.map((values) => ({ values })) },
      )
    }
    const system = text((body.systemInstruction as { parts?: unknown } | undefined)?.parts)
    const contents = body.contents as Array<{ role: string; parts: unknown }>
    const messages = [
      ...(system === '' ? [] : [{ role: 'system', content: system }]),
      ...contents.map((c) => ({ role: c.role === 'model' ? 'assistant' : 'user', content: text(c.parts) })),
    ]
    const config = body.generationConfig as { responseMimeType?: string } | undefined
    const { status, reply } = await ask(messages, config?.responseMimeType === 'application/json')
    if (status !== 200) return sendJson(res, status, { error: { code: status, message: `upstream ${status}` } })
    const content = reply.choices?.[0]?.message.content ?? ''
    const usageMetadata = {
      promptTokenCount: reply.usage?.prompt_tokens ?? 0,
      candidatesTokenCount: reply.usage?.completion_tokens ?? 0,
      totalTokenCount: (reply.usage?.prompt_tokens ?? 0) + (reply.usage?.completion_tokens ?? 0),
    }
    const candidate = (t: string, done: boolean) => ({
      content: { role: 'model', parts: [{ text: t }] },
      ...(done ? { finishReason: 'STOP' } : {}),
      index: 0,
    })
    if (method === 'generateContent')
      return sendJson(res, 200, { candidates: [candidate(content, true)], usageMetadata })
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    const pieces = content.match(/[\s\S]{1,16}/g) ?? []
    pieces.forEach((piece, i) => {
      const last = i === pieces.length - 1
      res.write(
        `data: ${JSON.stringify({ candidates: [candidate(piece, last)], ...(last ? { usageMetadata } : {}) })}\n\n`,
      )
    })
    res.end()
  }

  async function bedrock(path: string, body: Record<string, unknown>, res: ServerResponse): Promise<void> {
    const match = /^\/model\/([^/]+)\/(converse|invoke)$/.exec(path)
    if (match === null) return sendJson(res, 404, { message: `unknown path ${path}` })
    if (match[2] === 'invoke') {
      const { status, vectors } = await embed(
        [String(body.inputText ?? '')],
        typeof body.dimensions === 'number' ? body.dimensions : undefined,
      )
      if (status !== 200) return sendJson(res, status, { message: `upstream ${status}` })
      return sendJson(res, 200, { embedding: vectors[0], inputTextTokenCount: String(body.inputText ?? '').length })
    }
    const system = text(body.system)
    const messages = [
      ...(system === '' ? [] : [{ role: 'system', content: system }]),
      ...(body.messages as Array<{ role: string; content: unknown }>).map((m) => ({
        role: m.role,
        content: text(m.content),
      })),
    ]
    const { status, reply } = await ask(messages, false)
    if (status !== 200) return sendJson(res, status, { message: `upstream ${status}` })
    const content = reply.choices?.[0]?.message.content ?? ''
    const input = reply.usage?.prompt_tokens ?? 0
    const output = reply.usage?.completion_tokens ?? 0
    return sendJson(res, 200, {
      output: { message: { role: 'assistant', content: [{ text: content }] } },
      stopReason: 'end_turn',
      usage: { inputTokens: input, outputTokens: output, totalTokens: input + output },
      metrics: { latencyMs: 1 },
    })
  }

  const listening = await listenOnLoopback(server)
  const root = listening.root
  return {
    baseUrl: protocol === 'anthropic' ? `${root}/v1` : protocol === 'gemini' ? `${root}/v1beta` : root,
    requests,
    inner,
    close: async () => {
      await listening.close()
      await inner.close()
    },
  }
}
