/**
 * The batch APIs of Anthropic (Message Batches) and Gemini (batch mode) as real HTTP servers on
 * 127.0.0.1. Each line is answered by POSTing it to the synchronous fake of the same protocol
 * (protocols.ts), so a batched request gets exactly the reply the synchronous call would. Every
 * request to the batch routes is recorded (URL, headers, body).
 */
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http'
import { listenOnLoopback } from '../loopback-server.js'
import { readBody, sendJson } from './http.js'
import type { FakeLlmOptions } from './index.js'
import { type FakeProvider, startFakeProvider } from './protocols.js'

interface BatchRequest {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
}

export interface FakeBatchProvider {
  /** api_base for the batch client: `…/v1` (anthropic) or `…/v1beta` (gemini). */
  baseUrl: string
  requests: BatchRequest[]
  /** The synchronous fake that answers each line (its `requests` show the lines as sent). */
  sync: FakeProvider
  close(): Promise<void>
}

interface Job {
  id: string
  model: string
  polls: number
  lines: Array<{ key: string; body: unknown }>
  results: unknown[] | undefined
}

export async function startFakeBatchProvider(
  protocol: 'anthropic' | 'gemini',
  options: FakeLlmOptions & { pollsBeforeDone?: number } = {},
): Promise<FakeBatchProvider> {
  const sync = await startFakeProvider(protocol, options)
  const requests: BatchRequest[] = []
  const jobs = new Map<string, Job>()
  const server = createServer((req, res) => {
    void handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) sendJson(res, 500, { error: { message: String(error) } })
    })
  })

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req)
    // Both APIs refuse a JSON body that is not declared as JSON.
    if (raw !== '' && !String(req.headers['content-type']).startsWith('application/json'))
      return sendJson(res, 415, { error: { message: 'expected application/json' } })
    const body = (raw === '' ? {} : JSON.parse(raw)) as Record<string, unknown>
    requests.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body })
    const path = new URL(req.url ?? '/', 'http://127.0.0.1').pathname
    return protocol === 'anthropic' ? anthropic(req, path, body, res) : gemini(req, path, body, res)
  }

  /** POSTs one line to the synchronous fake with the batch request's credentials. */
  async function answer(req: IncomingMessage, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = { 'content-type': 'application/json' }
    for (const name of ['x-api-key', 'anthropic-version', 'x-goog-api-key'])
      if (typeof req.headers[name] === 'string') headers[name] = req.headers[name]
    const reply = await fetch(`${sync.baseUrl}${path}`, { method: 'POST', headers, body: JSON.stringify(body) })
    return { status: reply.status, body: await reply.json() }
  }

  /** Counts a poll; on the last one every line is answered. True when the job is done. */
  async function progress(job: Job, answerLine: (line: Job['lines'][number]) => Promise<unknown>): Promise<boolean> {
    job.polls += 1
    if (job.results === undefined && job.polls >= (options.pollsBeforeDone ?? 1))
      job.results = await Promise.all(job.lines.map(answerLine))
    return job.results !== undefined
  }

  async function anthropic(req: IncomingMessage, path: string, body: Record<string, unknown>, res: ServerResponse) {
    const root = `${listening.root}/v1/messages/batches`
    if (req.method === 'POST' && path === '/v1/messages/batches') {
      const lines = (body.requests as Array<{ custom_id: string; params: unknown }>).map((r) => ({
        key: r.custom_id,
        body: r.params,
      }))
      const job: Job = { id: `msgbatch_${jobs.size}`, model: '', polls: 0, lines, results: undefined }
      jobs.set(job.id, job)
      return sendJson(res, 200, {
        id: job.id,
        type: 'message_batch',
        processing_status: 'in_progress',
        results_url: null,
      })
    }
    const match = /^\/v1\/messages\/batches\/([^/]+)(\/results)?$/.exec(path)
    const job = jobs.get(match?.[1] ?? '')
    if (job === undefined) return sendJson(res, 404, { type: 'error', error: { type: 'not_found_error' } })
    if (match?.[2] !== undefined) {
      res.writeHead(200, { 'content-type': 'application/binary' })
      return void res.end(`${(job.results ?? []).map((r) => JSON.stringify(r)).join('\n')}\n`)
    }
    const done = await progress(job, async (line) => {
      const reply = await answer(req, '/messages', line.body)
      const result =
        reply.status === 200
          ? { type: 'succeeded', message: reply.body }
          : { type: 'errored', error: { type: 'error', error: (reply.body as { error?: unknown }).error } }
      return { custom_id: line.key, result }
    })
    return sendJson(res, 200, {
      id: job.id,
      type: 'message_batch',
      processing_status: done ? 'ended' : 'in_progress',
      results_url: done ? `${root}/${job.id}/results` : null,
    })
  }

  async function gemini(req: IncomingMessage, path: string, body: Record<string, unknown>, res: ServerResponse) {
    const create = /^\/v1beta\/models\/([^:]+):batchGenerateContent$/.exec(path)
    if (req.method === 'POST' && create !== null) {
      const batch = body.batch as {
        input_config: { requests: { requests: Array<{ request: unknown; metadata: { key: string } }> } }
      }
      const lines = batch.input_config.requests.requests.map((r) => ({ key: r.metadata.key, body: r.request }))
      const job: Job = { id: `batches/b${jobs.size}`, model: create[1]!, polls: 0, lines, results: undefined }
      jobs.set(job.id, job)
      return sendJson(res, 200, { name: job.id, metadata: { state: 'BATCH_STATE_PENDING' } })
    }
    const job = jobs.get(path.replace(/^\/v1beta\//, ''))
    if (job === undefined) return sendJson(res, 404, { error: { code: 404, message: `unknown path ${path}` } })
    const done = await progress(job, async (line) => {
      const reply = await answer(req, `/models/${job.model}:generateContent`, line.body)
      return reply.status === 200
        ? { response: reply.body, metadata: { key: line.key } }
        : { error: { code: reply.status, message: 'upstream error' }, metadata: { key: line.key } }
    })
    return sendJson(res, 200, {
      name: job.id,
      metadata: { state: done ? 'BATCH_STATE_SUCCEEDED' : 'BATCH_STATE_RUNNING' },
      ...(done ? { done: true, response: { inlinedResponses: { inlinedResponses: job.results } } } : {}),
    })
  }

  const listening = await listenOnLoopback(server)
  return {
    baseUrl: `${listening.root}${protocol === 'anthropic' ? '/v1' : '/v1beta'}`,
    requests,
    sync,
    close: async () => {
      await listening.close()
      await sync.close()
    },
  }
}
