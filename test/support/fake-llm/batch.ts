/**
 * The OpenAI (and Azure OpenAI) Batch API of the fake server: files upload (multipart), batch create,
 * poll and output/error file download. A batch's lines are answered by POSTing each one to this same
 * server's synchronous route (marked with the `x-fake-batch-line` header, which the request log
 * records), so a batch run gets exactly the replies a synchronous run of the same requests gets.
 */
import type { IncomingMessage, ServerResponse } from 'node:http'
import { sendJson } from './http.js'

export interface FakeBatchOptions {
  /** Polls answered `validating` / `in_progress` before the batch is finished (default 1). */
  pollsBeforeDone?: number
  /** The end of the n-th batch created (0-based; default completed). `expired` answers its first `answered` lines. */
  outcome?: (n: number) => BatchOutcome
}

type BatchOutcome = { status: 'completed' } | { status: 'failed' } | { status: 'expired'; answered: number }

interface FakeBatch {
  id: string
  endpoint: string
  status: string
  polls: number
  /** The input lines' custom ids, in file order. */
  customIds: string[]
  /** `api-version` for Azure, '' otherwise. */
  apiVersion: string
}

/** Every call to the Batch API routes, for the provider tests (URL, headers, body). */
interface BatchApiCall {
  method: string
  path: string
  search: string
  headers: Record<string, string | string[] | undefined>
  body: string
}

export interface FakeBatchApi {
  batches: FakeBatch[]
  calls: BatchApiCall[]
  /** True when the request is for the Batch API (answered by `handle`, not the synchronous routes). */
  handles(method: string | undefined, path: string): boolean
  handle(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<void>
}

interface StoredFile {
  id: string
  purpose: string
  filename: string
  content: string
}

interface Batch extends FakeBatch {
  inputFileId: string
  outputFileId: string | null
  errorFileId: string | null
  outcome: BatchOutcome
  lines: Array<{ custom_id: string; method: string; url: string; body: unknown }>
  counts: { total: number; completed: number; failed: number }
}

interface OutputLine {
  id: string
  custom_id: string
  response: { status_code: number; request_id: string; body: unknown } | null
  error: { code: string; message: string } | null
}

const ROUTE = /^\/(?:v1|openai)\/(files|batches)(?:\/([^/]+))?(?:\/(content|cancel))?$/

export function createFakeBatchApi(selfUrl: () => string, options: FakeBatchOptions = {}): FakeBatchApi {
  const files = new Map<string, StoredFile>()
  const batches: Batch[] = []
  const calls: BatchApiCall[] = []

  async function handle(req: IncomingMessage, res: ServerResponse, url: URL, raw: string): Promise<void> {
    calls.push({ method: req.method ?? '', path: url.pathname, search: url.search, headers: req.headers, body: raw })
    if (url.pathname.startsWith('/openai/') && url.searchParams.get('api-version') === null)
      return sendJson(res, 400, {
        error: { message: 'api-version query parameter is required', type: 'invalid_request_error' },
      })
    const [, kind, id, action] = ROUTE.exec(url.pathname) ?? []
    if (kind === 'files' && id === undefined && req.method === 'POST') return upload(req, res, raw)
    if (kind === 'files' && id !== undefined && action === 'content') return download(res, id)
    if (kind === 'batches' && id === undefined && req.method === 'POST') {
      // The real API refuses a JSON body that is not declared as JSON.
      if (!String(req.headers['content-type']).startsWith('application/json'))
        return sendJson(res, 415, { error: { message: 'expected application/json', type: 'invalid_request_error' } })
      return create(res, raw, url)
    }
    if (kind === 'batches' && id !== undefined && req.method === 'GET') return poll(req, res, id)
    return sendJson(res, 404, { error: { message: `unknown path ${url.pathname}`, type: 'invalid_request_error' } })
  }

  function upload(req: IncomingMessage, res: ServerResponse, raw: string) {
    const parts = multipart(String(req.headers['content-type'] ?? ''), raw)
    const file = parts.find((p) => p.filename !== undefined)
    const purpose = parts.find((p) => p.name === 'purpose')?.content
    if (file === undefined || purpose !== 'batch')
      return sendJson(res, 400, {
        error: { message: 'expected a file and purpose=batch', type: 'invalid_request_error' },
      })
    const stored = { id: `file-fake-${files.size}`, purpose, filename: file.filename ?? '', content: file.content }
    files.set(stored.id, stored)
    sendJson(res, 200, fileObject(stored))
  }

  function download(res: ServerResponse, id: string) {
    const file = files.get(id)
    if (file === undefined)
      return sendJson(res, 404, { error: { message: `no file ${id}`, type: 'invalid_request_error' } })
    res.writeHead(200, {
      'content-type': 'application/octet-stream',
      'content-length': Buffer.byteLength(file.content),
    })
    res.end(file.content)
  }

  function create(res: ServerResponse, raw: string, url: URL) {
    const body = JSON.parse(raw) as { input_file_id?: string; endpoint?: string; completion_window?: string }
    const input = files.get(body.input_file_id ?? '')
    if (input === undefined || body.completion_window !== '24h' || typeof body.endpoint !== 'string')
      return sendJson(res, 400, { error: { message: 'bad batch request', type: 'invalid_request_error' } })
    const lines = input.content
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as Batch['lines'][number])
    const batch: Batch = {
      id: `batch_fake_${batches.length}`,
      endpoint: body.endpoint,
      status: 'validating',
      polls: 0,
      customIds: lines.map((l) => l.custom_id),
      apiVersion: url.searchParams.get('api-version') ?? '',
      inputFileId: input.id,
      outputFileId: null,
      errorFileId: null,
      outcome: options.outcome?.(batches.length) ?? { status: 'completed' },
      lines,
      counts: { total: lines.length, completed: 0, failed: 0 },
    }
    batches.push(batch)
    sendJson(res, 200, batchObject(batch))
  }

  async function poll(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    const batch = batches.find((b) => b.id === id)
    if (batch === undefined)
      return sendJson(res, 404, { error: { message: `no batch ${id}`, type: 'invalid_request_error' } })
    batch.polls += 1
    if (batch.status === 'validating' || batch.status === 'in_progress') {
      if (batch.polls <= (options.pollsBeforeDone ?? 1) - 1) batch.status = 'in_progress'
      else await finish(batch, req.headers)
    }
    sendJson(res, 200, batchObject(batch))
  }

  async function finish(batch: Batch, headers: IncomingMessage['headers']): Promise<void> {
    if (batch.outcome.status === 'failed') {
      batch.status = 'failed'
      return
    }
    const answering = batch.outcome.status === 'expired' ? batch.lines.slice(0, batch.outcome.answered) : batch.lines
    const answers = await Promise.all(answering.map((line) => answer(batch, line, headers)))
    const ok = answers.filter((a) => a.ok).map((a) => a.line)
    const failed: OutputLine[] = answers.filter((a) => !a.ok).map((a) => a.line)
    for (const line of batch.lines.slice(answering.length))
      failed.push({
        id: `batch_req_${line.custom_id}`,
        custom_id: line.custom_id,
        response: null,
        error: {
          code: 'batch_expired',
          message: 'This request could not be executed before the completion window expired.',
        },
      })
    batch.outputFileId = ok.length === 0 ? null : store(ok, `${batch.id}_output.jsonl`)
    batch.errorFileId = failed.length === 0 ? null : store(failed, `${batch.id}_error.jsonl`)
    batch.counts = { total: batch.lines.length, completed: ok.length, failed: failed.length }
    batch.status = batch.outcome.status
  }

  function store(lines: unknown[], filename: string): string {
    const file = {
      id: `file-fake-${files.size}`,
      purpose: 'batch_output',
      filename,
      content: `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`,
    }
    files.set(file.id, file)
    return file.id
  }

  /** One line through the synchronous route, with the batch's credentials. */
  async function answer(batch: Batch, line: Batch['lines'][number], headers: IncomingMessage['headers']) {
    const auth: Record<string, string> = {}
    for (const name of ['authorization', 'api-key']) if (typeof headers[name] === 'string') auth[name] = headers[name]
    const path = line.url.startsWith('/v1/') ? line.url : `/v1${line.url}`
    const reply = await fetch(`${selfUrl()}${path}`, {
      method: line.method,
      headers: { 'content-type': 'application/json', 'x-fake-batch-line': batch.id, ...auth },
      body: JSON.stringify(line.body),
    })
    const text = await reply.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error
      // A broken body (a fault) is passed on as text, as a provider would hand back what it got.
    }
    const response = { status_code: reply.status, request_id: `req_${line.custom_id.slice(0, 8)}`, body }
    const out: OutputLine = { id: `batch_req_${line.custom_id}`, custom_id: line.custom_id, response, error: null }
    return { ok: reply.ok, line: out }
  }

  return {
    batches,
    calls,
    handles: (method, path) => ROUTE.test(path) && (method === 'POST' || method === 'GET'),
    handle,
  }
}

function fileObject(file: StoredFile) {
  return {
    id: file.id,
    object: 'file',
    bytes: Buffer.byteLength(file.content),
    created_at: 0,
    filename: file.filename,
    purpose: file.purpose,
  }
}

function batchObject(batch: Batch) {
  return {
    id: batch.id,
    object: 'batch',
    endpoint: batch.endpoint,
    errors:
      batch.status === 'failed'
        ? { object: 'list', data: [{ code: 'fake_failure', message: 'the batch failed (fake)' }] }
        : null,
    input_file_id: batch.inputFileId,
    completion_window: '24h',
    status: batch.status,
    output_file_id: batch.outputFileId,
    error_file_id: batch.errorFileId,
    created_at: 0,
    request_counts: batch.counts,
  }
}

/** The parts of a multipart/form-data body (enough for the files API: text fields and one file). */
function multipart(contentType: string, raw: string): Array<{ name: string; filename?: string; content: string }> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType)
  if (boundary === null) return []
  const delimiter = `--${boundary[1] ?? boundary[2]}`
  return raw
    .split(delimiter)
    .slice(1, -1)
    .map((part) => {
      const headerEnd = part.indexOf('\r\n\r\n')
      const head = part.slice(0, headerEnd)
      const content = part.slice(headerEnd + 4).replace(/\r\n$/, '')
      const name = /name="([^"]*)"/.exec(head)?.[1] ?? ''
      const filename = /filename="([^"]*)"/.exec(head)?.[1]
      return filename === undefined ? { name, content } : { name, filename, content }
    })
}
