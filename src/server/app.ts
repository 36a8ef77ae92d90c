/**
 * The HTTP API of `graphrag serve` on hono: web-page guards, bearer auth, body limits, validated
 * bodies, routes, and error replies that carry a message and never a stack trace or a secret.
 */
import { Hono, type Context } from 'hono'
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
import { needsToken, reachableWorkspaces, workspaceAuth } from './workspace-auth.js'
import {
  contentTypeGuard,
  corsFor,
  hostGuard,
  MULTIPART_PATHS,
  originGuard,
  type WebGuardSettings,
} from './web-guard.js'

/** One project's parts: the default workspace (the serve root) or a named one. */
export interface ProjectParts {
  queries: QueryService
  jobs: IndexJobs
  probe: ModelProbe
  documents: DocumentCatalog
  maxUploadBytes: number
}

export interface ServerParts {
  /** The project at the serve root: the routes without a prefix. */
  project: ProjectParts
  /** Named workspaces, each under /w/{name}/ with its own token (undefined: the admin token, if any). */
  workspaces?: ReadonlyMap<string, { parts: ProjectParts; token: string | undefined }>
  /** The admin bearer token (GRAPHRAG_SERVER_TOKEN), reaching every workspace; undefined = none. */
  token: string | undefined
  maxBodyBytes: number
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
    errorDetail(() => debugErrors(parts.project.queries)),
  )
  // First, so requests the guards refuse are logged too.
  if (parts.requestLog !== undefined) app.use('*', requestLog(parts.requestLog))
  app.use('*', hostGuard(parts.web))
  const cors = corsFor(parts.web)
  if (cors !== undefined) app.use('*', cors)
  app.get('/health', (c) => c.json({ status: 'ok', api_version: API_VERSION }))
  registerUiRoutes(app) // the web UI's page and bundle: it must load to ask for the token
  registerApiDocs(app) // the API reference: a description of the API, no project data
  const workspaces = parts.workspaces ?? new Map()
  const auth = { admin: parts.token, workspaces: new Map([...workspaces].map(([name, w]) => [name, w.token])) }
  if (needsToken(auth)) app.use('*', workspaceAuth(auth))
  app.use('*', originGuard(parts.web))
  app.use('*', contentTypeGuard())
  app.use('*', limitNonUploads(parts.maxBodyBytes, MULTIPART_PATHS))
  app.get('/openapi.json', (c) => c.json(OPENAPI))
  app.get('/workspaces', (c) => c.json(reachableWorkspaces(auth, c.req.header('authorization'))))
  // Named workspaces first: /w/… must not fall to the default project's routes.
  for (const [name, workspace] of workspaces) app.route(`/w/${name}`, projectApp(workspace.parts, `/w/${name}`))
  app.route('/', projectApp(parts.project, ''))
  return app
}

/** The routes of one project, each path below `base` ('' for the default workspace, else /w/{name}). */
function projectApp(parts: ProjectParts, base: string): Hono {
  const app = new Hono()
  app.post('/query', validQuery(), async (c) => answerQuery(c, parts.queries, c.req.valid('json')))
  app.post('/ranking/preview', validPreview(), async (c) =>
    c.json(await parts.queries.rankingPreview(c.req.valid('json').question, c.req.raw.signal)),
  )
  app.post('/index', validIndex(), async (c) => {
    const { mode, method } = c.req.valid('json')
    const job = parts.jobs.start(mode, method)
    return c.json({ job: job.id, mode, method: method ?? null, stream: `${base}/index/stream?job=${job.id}` }, 202)
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
  registerIngestRoutes(app, {
    documents: parts.documents,
    jobs: parts.jobs,
    config: () => parts.queries.config(),
    base,
  })
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

/**
 * Request problems keep their status; a project without an index is a 409; our errors are 500 with their message (secret-free by design,
 * URL credentials masked as a second line of defence); others say only "internal".
 */
function errorReply(c: Context, error: unknown): Response {
  if (error instanceof RequestError) {
    const type = error.status === 401 ? 'unauthorized' : 'invalid_request'
    return c.json({ error: { message: maskUrlSecrets(error.message), type } }, error.status)
  }
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
