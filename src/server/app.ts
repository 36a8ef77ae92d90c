/**
 * The HTTP API of `graphrag serve` on hono: web-page guards, bearer auth, body limits, validated
 * bodies, routes, and error replies that carry a message and never a stack trace or a secret.
 */
import { Hono, type Context, type MiddlewareHandler } from 'hono'
import { bearerAuth } from 'hono/bearer-auth'
import { HTTPException } from 'hono/http-exception'
import { ConfigError, MissingIndexError, RequestError } from '../errors.js'
import { maskUrlSecrets } from '../text/url-secrets.js'
import { limitNonUploads } from './body-limit.js'
import { registerChatRoutes } from './chat-completions.js'
import { registerCurationRoutes } from './curation-routes.js'
import { registerDocumentRoutes } from './document-routes.js'
import { errorDetail, rememberTrace } from './error-detail.js'
import type { DocumentCatalog } from './documents.js'
import { API_VERSION, diagnose } from './diagnostics.js'
import { publicMessage, type IndexJobs } from './index-jobs.js'
import { registerIndexStream } from './index-stream.js'
import { registerIngestRoutes } from './ingest.js'
import { handleMcpRequest } from './mcp.js'
import type { ModelProbe } from './model-probe.js'
import { OPENAPI } from './openapi.js'
import { answerQuery } from './query-route.js'
import type { QueryService } from './query-service.js'
import { validEmptyOrNone, validIndex, validPreview, validQuery } from './requests.js'
import { registerUiData } from './ui-data.js'
import { registerUiRoutes } from './ui-routes.js'
import { registerApiDocs } from './api-docs.js'
import { requestLog, type LogLine } from './request-log.js'
import {
  contentTypeGuard,
  corsFor,
  hostGuard,
  MULTIPART_PATHS,
  originGuard,
  type WebGuardSettings,
} from './web-guard.js'

export interface ServerParts {
  queries: QueryService
  jobs: IndexJobs
  probe: ModelProbe
  /** Bearer token every path but /health needs; undefined = no auth (loopback only). */
  token: string | undefined
  documents: DocumentCatalog
  maxBodyBytes: number
  maxUploadBytes: number
  web: WebGuardSettings
  /** Where each request's line goes; undefined = no request log (`serve --quiet`, tests). */
  requestLog?: LogLine
}

export function createApp(parts: ServerParts): Hono {
  const app = new Hono()
  app.onError((error, c) => {
    rememberTrace(c.req.raw, error)
    return errorReply(c, error)
  })
  app.notFound((c) => c.json({ error: { message: `no route ${c.req.method} ${c.req.path}`, type: 'not_found' } }, 404))
  // Outermost: every JSON error reply, whoever made it, gains the seed design's `detail`.
  app.use(
    '*',
    errorDetail(() => debugErrors(parts.queries)),
  )
  // First, so requests the guards refuse are logged too.
  if (parts.requestLog !== undefined) app.use('*', requestLog(parts.requestLog))
  app.use('*', hostGuard(parts.web))
  const cors = corsFor(parts.web)
  if (cors !== undefined) app.use('*', cors)
  app.get('/health', (c) => c.json({ status: 'ok', api_version: API_VERSION }))
  registerUiRoutes(app) // the web UI's page and bundle: it must load to ask for the token
  registerApiDocs(app) // the API reference: a description of the API, no project data
  if (parts.token !== undefined) app.use('*', tokenAuth(parts.token))
  app.use('*', originGuard(parts.web))
  app.use('*', contentTypeGuard())
  app.use('*', limitNonUploads(parts.maxBodyBytes, MULTIPART_PATHS))
  app.get('/openapi.json', (c) => c.json(OPENAPI))
  app.post('/query', validQuery(), async (c) => answerQuery(c, parts.queries, c.req.valid('json')))
  app.post('/ranking/preview', validPreview(), async (c) =>
    c.json(await parts.queries.rankingPreview(c.req.valid('json').question, c.req.raw.signal)),
  )
  app.post('/index', validIndex(), async (c) => {
    const { mode, method } = c.req.valid('json')
    const job = parts.jobs.start(mode, method)
    return c.json({ job: job.id, mode, method: method ?? null, stream: `/index/stream?job=${job.id}` }, 202)
  })
  registerIndexStream(app, parts.jobs)
  app.get('/diagnostics', async (c) => c.json(await diagnose(parts.queries.config(), parts.probe)))
  app.get('/cache/stats', (c) => c.json(parts.queries.cacheStats()))
  app.post('/cache/clear', validEmptyOrNone(), (c) => {
    parts.queries.embeddings.clear()
    parts.queries.answers.clear()
    return c.json({ cleared: true })
  })
  registerDocumentRoutes(app, {
    documents: parts.documents,
    jobs: parts.jobs,
    config: () => parts.queries.config(),
    maxUploadBytes: parts.maxUploadBytes,
  })
  registerIngestRoutes(app, { documents: parts.documents, jobs: parts.jobs, config: () => parts.queries.config() })
  registerCurationRoutes(app, { jobs: parts.jobs, config: () => parts.queries.config() })
  registerChatRoutes(app, parts.queries)
  registerUiData(app, parts.queries)
  app.post('/mcp', (c) => handleMcpRequest(c.req.raw, { queries: parts.queries, documents: parts.documents }))
  // Stateless MCP: no server-initiated stream to open, no session to end.
  app.on(['GET', 'DELETE'], '/mcp', (c) =>
    c.json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: POST only' }, id: null }, 405, {
      Allow: 'POST',
    }),
  )
  return app
}

/** `server.debug_errors` as the settings say now; settings that do not load say no. */
function debugErrors(queries: QueryService): boolean {
  try {
    return queries.config().settings.server.debug_errors
  } catch (error) {
    if (error instanceof ConfigError) return false
    throw error
  }
}

/** hono's bearer auth (constant-time comparison), answering in our error shape. */
function tokenAuth(token: string): MiddlewareHandler {
  const unauthorized = {
    message: {
      error: {
        message: 'missing or wrong bearer token (Authorization: Bearer <GRAPHRAG_SERVER_TOKEN>)',
        type: 'unauthorized',
      },
    },
  }
  return bearerAuth({
    token,
    noAuthenticationHeader: unauthorized,
    invalidToken: unauthorized,
    invalidAuthenticationHeader: {
      message: { error: { message: 'Authorization: expected "Bearer <token>"', type: 'invalid_request' } },
    },
  })
}

/**
 * Request problems keep their status; a project without an index is a 409; our errors are 500 with their message (secret-free by design,
 * URL credentials masked as a second line of defence); others say only "internal".
 */
function errorReply(c: Context, error: unknown): Response {
  if (error instanceof RequestError)
    return c.json({ error: { message: maskUrlSecrets(error.message), type: 'invalid_request' } }, error.status)
  // The project has no index yet: the client's fix (start an index job), not a server failure.
  if (error instanceof MissingIndexError)
    return c.json({ error: { message: `${maskUrlSecrets(error.message)} (or POST /index)`, type: 'no_index' } }, 409)
  // Settings are read again for each request: the operator's fix needs no restart, and the client cannot make it.
  if (error instanceof ConfigError)
    return c.json(
      {
        error: {
          message: `${maskUrlSecrets(error.message)} (a problem in the server's settings: fixing them needs no restart)`,
          type: 'settings_error',
        },
      },
      500,
    )
  if (error instanceof HTTPException) {
    if (error.res !== undefined) return error.getResponse()
    // hono's JSON validator: the parser's own message would quote the body.
    const message = error.status === 400 ? 'the request body is not valid JSON' : error.message
    return c.json({ error: { message, type: 'invalid_request' } }, error.status)
  }
  if (!(error instanceof Error) || !('code' in error)) console.error(error)
  return c.json({ error: { message: publicMessage(error), type: 'server_error' } }, 500)
}
