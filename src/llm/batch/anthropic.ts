/**
 * Anthropic Message Batches: `POST /v1/messages/batches` with every request's Messages API params
 * under its custom_id, `GET /v1/messages/batches/{id}` until `processing_status` is `ended`, then the
 * JSONL at `results_url` (one `succeeded` / `errored` / `canceled` / `expired` result per request).
 */
import { AttemptFailure } from '../failure.js'
import type { BatchApi, BatchStatus, LineResult } from './types.js'
import { asChatCompletion, defined, messagesOf, numberParam, stopSequences } from './openai-shape.js'
import { batchHttp } from './http.js'

export interface AnthropicBatchOptions {
  apiBase: string | undefined
  apiKey: string | undefined
}

const API_VERSION = '2023-06-01'
/** Messages API requires max_tokens; this is what a call without max_tokens in call_args asks for. */
const DEFAULT_MAX_TOKENS = 4096

export function anthropicBatchApi(options: AnthropicBatchOptions): BatchApi {
  const base = (options.apiBase ?? 'https://api.anthropic.com/v1').replace(/\/+$/, '')
  const http = batchHttp(base, { 'x-api-key': options.apiKey ?? '', 'anthropic-version': API_VERSION })
  return {
    provider: 'anthropic',
    maxLines: 100_000,
    maxBytes: 250 * 1024 * 1024,
    embeddings: false,
    async submit(lines) {
      const requests = lines.map((l) => ({ custom_id: l.key, params: messagesParams(l.body) }))
      const created = (await http.json('POST', `${base}/messages/batches`, { requests })) as { id?: unknown }
      if (typeof created.id !== 'string') throw invalid('the batch was created without an id')
      return created.id
    },
    async status(id) {
      const batch = (await http.json('GET', `${base}/messages/batches/${encodeURIComponent(id)}`)) as {
        processing_status?: string
      }
      return statusOf(batch.processing_status)
    },
    async results(id) {
      const batch = (await http.json('GET', `${base}/messages/batches/${encodeURIComponent(id)}`)) as {
        results_url?: string | null
      }
      const out = new Map<string, LineResult>()
      if (typeof batch.results_url !== 'string') return out
      for (const line of (await http.text('GET', batch.results_url)).split('\n')) {
        if (line.trim() === '') continue
        const parsed = JSON.parse(line) as ResultLine
        if (typeof parsed.custom_id === 'string') out.set(parsed.custom_id, resultOf(parsed))
      }
      return out
    },
  }
}

/** The Messages API params of an OpenAI chat body: system messages apart, the rest as text blocks. */
function messagesParams(body: Record<string, unknown>): Record<string, unknown> {
  const messages = messagesOf(body)
  const system = messages.filter((m) => m.role === 'system').map((m) => m.content)
  return defined({
    model: body.model,
    max_tokens: numberParam(body, 'max_completion_tokens', 'max_tokens') ?? DEFAULT_MAX_TOKENS,
    ...(system.length === 0 ? {} : { system: system.join('\n\n') }),
    messages: messages
      .filter((m) => m.role !== 'system')
      .map((m) => ({ role: m.role, content: [{ type: 'text', text: m.content }] })),
    temperature: numberParam(body, 'temperature'),
    top_p: numberParam(body, 'top_p'),
    top_k: numberParam(body, 'top_k'),
    stop_sequences: stopSequences(body),
  })
}

function statusOf(status: string | undefined): BatchStatus {
  if (status === 'ended') return 'completed'
  if (status === 'in_progress' || status === 'canceling' || status === undefined) return 'pending'
  throw invalid(`unknown processing_status "${status}"`)
}

interface ResultLine {
  custom_id?: string
  result?: {
    type?: string
    message?: {
      content?: Array<{ type?: string; text?: string }>
      usage?: { input_tokens?: number; output_tokens?: number }
    }
    error?: { type?: string; error?: { type?: string; message?: string } }
  }
}

function resultOf(line: ResultLine): LineResult {
  const result = line.result
  if (result?.type === 'succeeded') {
    const blocks = result.message?.content ?? []
    const text = blocks.some((b) => b.type === 'text')
      ? blocks.map((b) => (b.type === 'text' ? (b.text ?? '') : '')).join('')
      : undefined
    const usage = result.message?.usage
    return { ok: true, body: asChatCompletion(text, { prompt: usage?.input_tokens, completion: usage?.output_tokens }) }
  }
  if (result?.type === 'errored') {
    const type = result.error?.error?.type ?? result.error?.type ?? 'error'
    // A request Anthropic judged invalid would be refused again; server-side errors are worth another try.
    const refused = type === 'invalid_request_error' || type === 'authentication_error' || type === 'permission_error'
    return {
      ok: false,
      status: undefined,
      message: `${type}: ${result.error?.error?.message ?? ''}`.trim(),
      retryable: !refused,
    }
  }
  return { ok: false, status: undefined, message: `request ${result?.type ?? 'not answered'}`, retryable: true }
}

function invalid(message: string): AttemptFailure {
  return new AttemptFailure(`batch API: ${message}`, { kind: 'invalid_reply', retryable: true })
}
