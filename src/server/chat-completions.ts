/**
 * POST /v1/chat/completions and GET /v1/models: the OpenAI chat protocol over queries, so chat
 * front-ends can use the index. The last user message is the question, earlier turns its history,
 * and the model name (`graphrag-local`, …) picks the method.
 */
import { randomUUID } from 'node:crypto'
import type { Context, Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { RequestError } from '../errors.js'
import { SEARCH_DEFAULTS, type SearchMethod } from '../query/index.js'
import { publicMessage } from './index-jobs.js'
import type { QueryRequest, QueryService } from './query-service.js'
import { QUERY_METHODS, validChat, type ChatBody } from './requests.js'

const MODEL_PREFIX = 'graphrag-'

export function registerChatRoutes(app: Hono, queries: QueryService): void {
  app.get('/v1/models', (c) =>
    c.json({
      object: 'list',
      data: QUERY_METHODS.map((m) => ({
        id: `${MODEL_PREFIX}${m}`,
        object: 'model',
        created: 0,
        owned_by: 'graphrag',
      })),
    }),
  )
  app.post('/v1/chat/completions', validChat(), async (c) => {
    const body = c.req.valid('json')
    const { model, request } = chatRequest(body)
    const stream = body.stream
    const { key, answer: cached } = queries.cached(request)
    const id = `chatcmpl-${randomUUID()}`
    const created = Math.floor(Date.now() / 1000)
    if (!stream) {
      const answer = cached ?? (await queries.run(request, key, c.req.raw.signal))
      return c.json(completion(id, created, model, answer.response, answer.usage))
    }
    return streamChat(c, { id, created, model }, async (signal, onChunk) => {
      if (cached !== undefined) return void (await onChunk(cached.response))
      await queries.run(request, key, signal, onChunk)
    })
  })
}

interface Usage {
  promptTokens: number
  completionTokens: number
}

function completion(id: string, created: number, model: string, content: string, usage: Usage) {
  return {
    id,
    object: 'chat.completion',
    created,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: {
      prompt_tokens: usage.promptTokens,
      completion_tokens: usage.completionTokens,
      total_tokens: usage.promptTokens + usage.completionTokens,
    },
  }
}

type Run = (signal: AbortSignal, onChunk: (chunk: string) => Promise<void>) => Promise<void>

function streamChat(c: Context, head: { id: string; created: number; model: string }, run: Run): Response {
  const chunk = (delta: Record<string, string>, finish: string | null) =>
    JSON.stringify({ ...head, object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] })
  return streamSSE(c, async (stream) => {
    const controller = new AbortController()
    stream.onAbort(() => controller.abort(new Error('client disconnected')))
    await stream.writeSSE({ data: chunk({ role: 'assistant', content: '' }, null) })
    try {
      await run(controller.signal, (text) => stream.writeSSE({ data: chunk({ content: text }, null) }))
      await stream.writeSSE({ data: chunk({}, 'stop') })
    } catch (error) {
      if (controller.signal.aborted) return
      await stream.writeSSE({
        data: JSON.stringify({ error: { message: publicMessage(error), type: 'server_error' } }),
      })
    }
    await stream.writeSSE({ data: '[DONE]' })
  })
}

/** The model name and the query: last user message, earlier user/assistant turns as history (system messages are ignored). */
function chatRequest(body: ChatBody): { model: string; request: QueryRequest } {
  const model = body.model
  const method = model.startsWith(MODEL_PREFIX) ? model.slice(MODEL_PREFIX.length) : ''
  if (!QUERY_METHODS.includes(method as SearchMethod))
    throw new RequestError(400, `model: expected one of ${QUERY_METHODS.map((m) => MODEL_PREFIX + m).join(', ')}`)
  const turns = body.messages.map((m: unknown, i) => {
    const t = m as { role?: unknown; content?: unknown } | null
    if (t === null || typeof t !== 'object' || typeof t.role !== 'string')
      throw new RequestError(400, `messages[${i}]: expected {role, content}`)
    return { role: t.role, content: textOf(t.content, i) }
  })
  const last = turns.findLastIndex((t) => t.role === 'user')
  if (last < 0) throw new RequestError(400, 'messages: no user message to answer')
  const history = turns
    .slice(0, last)
    .filter((t): t is { role: 'user' | 'assistant'; content: string } => t.role === 'user' || t.role === 'assistant')
  const request = {
    question: turns[last]!.content,
    method: method as SearchMethod,
    communityLevel: SEARCH_DEFAULTS.communityLevel,
    responseType: SEARCH_DEFAULTS.responseType,
    dynamicCommunitySelection: SEARCH_DEFAULTS.dynamicCommunitySelection,
    history,
    externalContext: [],
  }
  return { model, request }
}

/** Content as a string, or the text parts of a content array (as newer clients send). */
function textOf(content: unknown, i: number): string {
  if (typeof content === 'string') return content
  if (Array.isArray(content))
    return content
      .map((p: { type?: string; text?: unknown }) => (p?.type === 'text' && typeof p.text === 'string' ? p.text : ''))
      .join('')
  throw new RequestError(400, `messages[${i}].content: expected a string`)
}
