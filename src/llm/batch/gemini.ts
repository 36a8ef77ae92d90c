/**
 * Gemini batch mode (AI Studio): `POST /v1beta/models/{model}:batchGenerateContent` with the
 * requests inlined (each GenerateContentRequest with our key in its metadata), `GET /v1beta/{name}`
 * until the batch state is final, and the inlined responses read back from it, in request order.
 */
import { AttemptFailure } from '../failure.js'
import type { BatchApi, BatchStatus, LineResult } from './types.js'
import { asChatCompletion, defined, messagesOf, numberParam, stopSequences } from './openai-shape.js'
import { batchHttp } from './http.js'

export interface GeminiBatchOptions {
  apiBase: string | undefined
  apiKey: string | undefined
}

export function geminiBatchApi(options: GeminiBatchOptions): BatchApi {
  const base = (options.apiBase ?? 'https://generativelanguage.googleapis.com/v1beta').replace(/\/+$/, '')
  const http = batchHttp(base, { 'x-goog-api-key': options.apiKey ?? '' })
  return {
    provider: 'gemini',
    maxLines: 50_000,
    // Inlined requests are limited to 20 MB per batch (larger ones need the files API).
    maxBytes: 19 * 1024 * 1024,
    embeddings: false,
    async submit(lines) {
      const model = String(lines[0]?.body.model ?? '')
      const body = {
        batch: {
          display_name: 'graphrag',
          input_config: {
            requests: {
              requests: lines.map((l) => ({ request: generateContentRequest(l.body), metadata: { key: l.key } })),
            },
          },
        },
      }
      const created = (await http.json(
        'POST',
        `${base}/models/${encodeURIComponent(model)}:batchGenerateContent`,
        body,
      )) as { name?: unknown }
      if (typeof created.name !== 'string') throw invalid('the batch was created without a name')
      return created.name
    },
    async status(id) {
      return statusOf(((await http.json('GET', `${base}/${id}`)) as BatchResource).metadata?.state)
    },
    async results(id) {
      const batch = (await http.json('GET', `${base}/${id}`)) as BatchResource
      const out = new Map<string, LineResult>()
      for (const item of inlinedResponses(batch)) {
        const key = item.metadata?.key
        if (typeof key === 'string') out.set(key, resultOf(item))
      }
      return out
    },
  }
}

/** The GenerateContentRequest of an OpenAI chat body (system instruction apart, `assistant` as `model`). */
function generateContentRequest(body: Record<string, unknown>): Record<string, unknown> {
  const messages = messagesOf(body)
  const system = messages.filter((m) => m.role === 'system').map((m) => ({ text: m.content }))
  const format = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined
  return defined({
    contents: messages
      .filter((m) => m.role !== 'system')
      .map((m) => ({ role: m.role === 'assistant' ? 'model' : 'user', parts: [{ text: m.content }] })),
    systemInstruction: system.length === 0 ? undefined : { parts: system },
    generationConfig: defined({
      maxOutputTokens: numberParam(body, 'max_completion_tokens', 'max_tokens'),
      temperature: numberParam(body, 'temperature'),
      topP: numberParam(body, 'top_p'),
      topK: numberParam(body, 'top_k'),
      seed: numberParam(body, 'seed'),
      stopSequences: stopSequences(body),
      responseMimeType: format === undefined ? undefined : 'application/json',
      responseJsonSchema: format?.type === 'json_schema' ? format.json_schema?.schema : undefined,
    }),
  })
}

interface InlinedResponse {
  metadata?: { key?: unknown }
  response?: {
    candidates?: Array<{ content?: { parts?: Array<{ text?: string }> } }>
    usageMetadata?: { promptTokenCount?: number; candidatesTokenCount?: number }
  }
  error?: { code?: number; message?: string }
}

interface BatchResource {
  metadata?: { state?: string; output?: { inlinedResponses?: { inlinedResponses?: InlinedResponse[] } } }
  response?: { inlinedResponses?: { inlinedResponses?: InlinedResponse[] } | InlinedResponse[] }
}

/** The responses wherever this API version puts them: under `response` once done, or the batch's `output`. */
function inlinedResponses(batch: BatchResource): InlinedResponse[] {
  const fromResponse = batch.response?.inlinedResponses
  if (Array.isArray(fromResponse)) return fromResponse
  return fromResponse?.inlinedResponses ?? batch.metadata?.output?.inlinedResponses?.inlinedResponses ?? []
}

function statusOf(state: string | undefined): BatchStatus {
  const name = (state ?? '').replace(/^(BATCH|JOB)_STATE_/, '')
  if (name === 'SUCCEEDED') return 'completed'
  if (name === 'FAILED') return 'failed'
  if (name === 'EXPIRED') return 'expired'
  if (name === 'CANCELLED') return 'cancelled'
  if (name === '' || name === 'PENDING' || name === 'RUNNING' || name === 'UNSPECIFIED') return 'pending'
  throw invalid(`unknown batch state "${state}"`)
}

function resultOf(item: InlinedResponse): LineResult {
  if (item.response === undefined) {
    const status = item.error?.code
    return {
      ok: false,
      status: undefined,
      message: `request failed${status === undefined ? '' : ` (${status})`}: ${item.error?.message ?? 'no response'}`,
      retryable: status === undefined || status === 429 || status >= 500,
    }
  }
  const parts = item.response.candidates?.[0]?.content?.parts
  const text = parts === undefined ? undefined : parts.map((p) => p.text ?? '').join('')
  const usage = item.response.usageMetadata
  return {
    ok: true,
    body: asChatCompletion(text, { prompt: usage?.promptTokenCount, completion: usage?.candidatesTokenCount ?? 0 }),
  }
}

function invalid(message: string): AttemptFailure {
  return new AttemptFailure(`batch API: ${message}`, { kind: 'invalid_reply', retryable: true })
}
