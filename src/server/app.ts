/**
 * The HTTP API of `graphrag serve` on hono: routes, bearer auth, body limits and error replies that
 * carry a message and never a stack trace or a secret.
 */
import { timingSafeEqual } from 'node:crypto'
import { Hono, type Context } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { RequestError } from '../errors.js'
import type { IndexMethod } from '../index/plan/pipelines.js'
import { registerChatRoutes } from './chat-completions.js'
import { API_VERSION, diagnose } from './diagnostics.js'
import { publicMessage, type IndexJobs } from './index-jobs.js'
import { registerIndexStream } from './index-stream.js'
import type { ModelProbe } from './model-probe.js'
import { OPENAPI } from './openapi.js'
import { answerQuery } from './query-route.js'
import type { QueryService } from './query-service.js'
import { registerUiData } from './ui-data.js'
import { registerUiRoutes } from './ui-routes.js'
import { jsonBody, oneOfField, requiredString } from './requests.js'

export interface ServerParts {
  queries: QueryService
  jobs: IndexJobs
  probe: ModelProbe
  /** Bearer token every path but /health needs; undefined = no auth (loopback only). */
  token: string | undefined
  maxBodyBytes: number
}

export function createApp(parts: ServerParts): Hono {
  const app = new Hono()
  app.onError((error, c) => errorReply(c, error))
  app.notFound((c) => c.json({ error: { message: `no route ${c.req.method} ${c.req.path}`, type: 'not_found' } }, 404))
  app.get('/health', (c) => c.json({ status: 'ok', api_version: API_VERSION }))
  registerUiRoutes(app) // the web UI's page and bundle: it must load to ask for the token
  app.use('*', bearerAuth(parts.token))
  app.use(
    '*',
    bodyLimit({
      maxSize: parts.maxBodyBytes,
      onError: () =>
        Promise.reject(
          new RequestError(413, `the request body is larger than ${parts.maxBodyBytes} bytes (server.max_body_bytes)`),
        ),
    }),
  )
  app.get('/openapi.json', (c) => c.json(OPENAPI))
  app.post('/query', async (c) => answerQuery(c, parts.queries, await jsonBody(c)))
  app.post('/ranking/preview', async (c) =>
    c.json(await parts.queries.rankingPreview(requiredString(await jsonBody(c), 'question'), c.req.raw.signal)),
  )
  app.post('/index', async (c) => {
    const body = await jsonBody(c)
    const mode = oneOfField(body, 'mode', ['index', 'update'] as const, 'index')
    const method =
      body.method === undefined || body.method === null
        ? undefined
        : oneOfField<IndexMethod>(body, 'method', ['standard', 'fast'], 'standard')
    const job = parts.jobs.start(mode, method)
    return c.json({ job: job.id, mode, method: method ?? null, stream: `/index/stream?job=${job.id}` }, 202)
  })
  registerIndexStream(app, parts.jobs)
  app.get('/diagnostics', async (c) => c.json(await diagnose(parts.queries.config(), parts.probe)))
  app.get('/cache/stats', (c) =>
    c.json({ embeddings: parts.queries.embeddings.stats(), answers: parts.queries.answers.stats() }),
  )
  app.post('/cache/clear', (c) => {
    parts.queries.embeddings.clear()
    parts.queries.answers.clear()
    return c.json({ cleared: true })
  })
  registerChatRoutes(app, parts.queries)
  registerUiData(app, parts.queries)
  return app
}

function bearerAuth(token: string | undefined) {
  return async (c: Context, next: () => Promise<void>) => {
    if (token !== undefined) {
      const header = c.req.header('authorization') ?? ''
      const given = header.startsWith('Bearer ') ? header.slice('Bearer '.length) : ''
      if (!sameSecret(given, token)) {
        c.header('WWW-Authenticate', 'Bearer')
        throw new RequestError(401, 'missing or wrong bearer token (Authorization: Bearer <GRAPHRAG_SERVER_TOKEN>)')
      }
    }
    await next()
  }
}

/** Constant-time comparison, so response times do not reveal how much of the token matched. */
function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given)
  const b = Buffer.from(expected)
  return a.length === b.length && timingSafeEqual(a, b)
}

/** Request problems keep their status; our errors are 500 with their message (secret-free by design); others say only "internal". */
function errorReply(c: Context, error: unknown): Response {
  if (error instanceof RequestError)
    return c.json({ error: { message: error.message, type: 'invalid_request' } }, error.status)
  if (!(error instanceof Error) || !('code' in error)) console.error(error)
  return c.json({ error: { message: publicMessage(error), type: 'server_error' } }, 500)
}
