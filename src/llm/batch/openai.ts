/**
 * The OpenAI Batch API (api.openai.com and Azure OpenAI global batch): the lines go up as one JSONL
 * file (`purpose=batch`), a batch is created on it with a 24 h window, polled, and its output and
 * error files are read back. Azure differs in the paths (`/openai/files`, `/openai/batches`), the
 * `api-version` query, the `api-key` header, the line URLs (no `/v1`) and the model of each line,
 * which is the deployment name.
 */
import { AttemptFailure, isRetryableStatus } from '../failure.js'
import { redactUrls } from '../safe-url.js'
import { batchHttp } from './http.js'
import type { BatchApi, BatchLine, BatchStatus, LineResult } from './types.js'

export interface OpenAiBatchOptions {
  provider: 'openai' | 'azure'
  apiBase: string | undefined
  apiKey: string | undefined
  apiVersion: string | undefined
  /** Azure with Entra ID: a bearer token per request instead of the key. */
  tokenProvider?: () => Promise<string>
}

const PENDING = new Set(['validating', 'in_progress', 'finalizing', 'cancelling'])

export function openAiBatchApi(options: OpenAiBatchOptions): BatchApi {
  const { http, url, linePath } = openAiEndpoints(options)
  const batch = async (id: string) =>
    (await http.json('GET', url(`/batches/${encodeURIComponent(id)}`))) as {
      status?: string
      output_file_id?: string | null
      error_file_id?: string | null
    }
  return {
    provider: options.provider,
    maxLines: 50_000,
    // OpenAI takes files up to 200 MB; a margin for the multipart framing.
    maxBytes: 190 * 1024 * 1024,
    embeddings: true,
    async submit(lines) {
      const kind = lines[0]?.kind ?? 'chat'
      const jsonl = lines
        .map((l) => JSON.stringify({ custom_id: l.key, method: 'POST', url: linePath(l.kind), body: l.body }))
        .join('\n')
      const form = new FormData()
      form.append('purpose', 'batch')
      form.append('file', new Blob([`${jsonl}\n`], { type: 'application/jsonl' }), 'graphrag-batch.jsonl')
      const file = (await http.upload(url('/files'), form)) as { id?: unknown }
      if (typeof file.id !== 'string') throw invalid('the file upload returned no id')
      const body = { input_file_id: file.id, endpoint: linePath(kind), completion_window: '24h' }
      const created = (await http.json('POST', url('/batches'), body)) as { id?: unknown }
      if (typeof created.id !== 'string') throw invalid('the batch was created without an id')
      return created.id
    },
    async status(id) {
      return statusOf((await batch(id)).status)
    },
    async results(id) {
      const { error_file_id, output_file_id } = await batch(id)
      const out = new Map<string, LineResult>()
      for (const fileId of [error_file_id, output_file_id]) {
        if (typeof fileId !== 'string') continue
        const text = await http.text('GET', url(`/files/${encodeURIComponent(fileId)}/content`))
        for (const line of text.split('\n')) if (line.trim() !== '') addResult(out, JSON.parse(line) as OutputLine)
      }
      return out
    },
  }
}

/** Where OpenAI or Azure keeps its batch endpoints, and how a request there is signed. */
function openAiEndpoints(options: OpenAiBatchOptions) {
  const azure = options.provider === 'azure'
  const base = azure
    ? `${(options.apiBase ?? '').replace(/\/+$/, '')}/openai`
    : (options.apiBase ?? 'https://api.openai.com/v1').replace(/\/+$/, '')
  const auth = async (): Promise<Record<string, string>> => {
    if (options.tokenProvider !== undefined) return { authorization: `Bearer ${await options.tokenProvider()}` }
    return azure ? { 'api-key': options.apiKey ?? '' } : { authorization: `Bearer ${options.apiKey ?? 'no-key'}` }
  }
  return {
    http: batchHttp(base, auth),
    url: (path: string) =>
      azure ? `${base}${path}?api-version=${encodeURIComponent(options.apiVersion ?? '')}` : `${base}${path}`,
    /** The URL a line of the JSONL file names (relative to the API root, as the Batch API wants it). */
    linePath: (kind: BatchLine['kind']) =>
      `${azure ? '' : '/v1'}/${kind === 'chat' ? 'chat/completions' : 'embeddings'}`,
  }
}

function statusOf(status: string | undefined): BatchStatus {
  if (status === undefined || PENDING.has(status)) return 'pending'
  if (status === 'completed' || status === 'failed' || status === 'expired' || status === 'cancelled') return status
  throw invalid(`unknown batch status "${status}"`)
}

interface OutputLine {
  custom_id?: string
  response?: { status_code?: number; body?: unknown } | null
  error?: { code?: string; message?: string } | null
}

/** A line of the output or error file; an answer in the output file wins over an error for the same id. */
function addResult(out: Map<string, LineResult>, line: OutputLine): void {
  if (typeof line.custom_id !== 'string') return
  const status = line.response?.status_code
  if (status === 200) {
    out.set(line.custom_id, { ok: true, body: line.response?.body })
    return
  }
  if (out.get(line.custom_id)?.ok === true) return
  const body = line.response?.body as { error?: { message?: string } } | undefined
  // Auth replies echo (part of) the key: only their status is kept.
  const auth = status === 401 || status === 403
  const message = auth ? undefined : (line.error?.message ?? body?.error?.message)
  const text =
    status === undefined ? (message ?? 'no answer') : `HTTP ${status}${message === undefined ? '' : `: ${message}`}`
  out.set(line.custom_id, {
    ok: false,
    status,
    message: redactUrls(text),
    // An expired line or a transient status is asked again; a 400 would be refused again.
    retryable: status === undefined || isRetryableStatus(status),
  })
}

function invalid(message: string): AttemptFailure {
  return new AttemptFailure(`batch API: ${message}`, { kind: 'invalid_reply', retryable: true })
}
