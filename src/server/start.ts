/** Starts `graphrag serve`: checks the address/token rule, builds the parts and listens. */
import { serve } from '@hono/node-server'
import type { AddressInfo } from 'node:net'
import { loadConfig } from '../config/index.js'
import { searchModelProblems } from '../query/models.js'
import { ConfigError } from '../errors.js'
import { remoteName } from '../storage/object/remote.js'
import { publishedIndex, watchPublished } from '../storage/object/remote-index.js'
import { createApp, type ProjectParts } from './app.js'
import { DocumentCatalog } from './documents.js'
import { IndexJobs } from './index-jobs.js'
import { ModelProbe } from './model-probe.js'
import { QueryService, type Project } from './query-service.js'
import type { LogLine } from './request-log.js'
import { workspaceSpecs, workspaceTokenVariable, type WorkspaceSpec } from './workspaces.js'

export interface ServeOptions extends Project {
  /** Default: server.host from the settings (127.0.0.1). */
  host?: string
  /** Default: server.port from the settings (8010); 0 picks a free port. */
  port?: number
  /** Default: GRAPHRAG_SERVER_TOKEN from env. */
  token?: string
  /** Where the server's log lines go (index jobs, and requests unless `requestLog` is false); default none. */
  log?: LogLine
  /** Default true: a line per request (`serve --quiet` turns it off). */
  requestLog?: boolean
  /** Named workspaces from `--workspace name=root` (added to, or replacing, server.workspaces). */
  workspaces?: readonly { name: string; root: string }[]
}

export interface RunningServer {
  url: string
  host: string
  port: number
  /** For an index in object storage, where it is (`az://…` / `s3://…`, the published generation): start-up output names it. */
  remoteIndex?: string
  /** Settings problems that make some search methods fail (a model id naming no model): start-up output says them. */
  warnings: string[]
  /** The named workspaces served under /w/{name}/ (start-up output lists them, never their tokens). */
  workspaces: { name: string; root: string; url: string }[]
  /** Stops a running index job (its model calls get a grace period), then closes the server. */
  close(): Promise<void>
}

/** How long open responses (event streams) may take to end once the server is closing. */
const CLOSE_GRACE_MS = 500

const LOOPBACK = new Set(['127.0.0.1', '::1', 'localhost'])
// RFC 6750's token68: what a client can send after "Bearer " (hono's bearer auth accepts no other).
const TOKEN_SYNTAX = /^[A-Za-z0-9._~+/-]+=*$/
/** Beyond loopback the token is all that guards the index (and its uploads and index jobs): too short is guessable. */
const MIN_REMOTE_TOKEN_LENGTH = 16

export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const env = options.env ?? process.env
  const { settings } = loadConfig({ root: options.root, configFile: options.configFile, env: options.env })
  const host = options.host ?? settings.server.host
  const port = options.port ?? settings.server.port
  const token = options.token ?? (env.GRAPHRAG_SERVER_TOKEN?.trim() || undefined)
  const specs = workspaceSpecs(settings.root, settings.server.workspaces, options.workspaces ?? [])
  const tokens = workspaceTokens(specs, env)
  checkTokens(host, token, tokens)
  const { opened, named } = await openWorkspaces(options, specs, tokens)
  const app = createApp({
    project: opened[0]!.parts,
    workspaces: named,
    token,
    maxBodyBytes: settings.server.max_body_bytes,
    ...(options.log !== undefined && options.requestLog !== false ? { requestLog: options.log } : {}),
    web: {
      boundHost: host,
      allowedHosts: settings.server.allowed_hosts ?? [],
      corsOrigins: settings.server.cors_origins ?? [],
    },
  })
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const s = serve({ fetch: app.fetch, hostname: host, port }, () => resolve(s))
    s.once('error', reject)
  })
  const actual = (server.address() as AddressInfo).port
  const remoteIndex = await describeRemoteIndex(settings.output_storage.base_dir)
  const shown = host.includes(':') ? `[${host}]` : host
  const url = `http://${shown}:${actual}`
  return {
    url,
    host,
    port: actual,
    ...(remoteIndex === undefined ? {} : { remoteIndex }),
    warnings: searchModelProblems(settings),
    workspaces: specs.map((spec) => ({ ...spec, url: `${url}/w/${spec.name}/` })),
    // Running jobs are stopped as Ctrl-C stops `index` (nothing published half-done), then the server closes.
    close: async () => {
      await Promise.all(opened.map((project) => project.stop()))
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()))
        // Streams following the job end with its last event; others (a long query) are cut after a moment.
        if ('closeIdleConnections' in server) server.closeIdleConnections()
        const cut = setTimeout(() => 'closeAllConnections' in server && server.closeAllConnections(), CLOSE_GRACE_MS)
        cut.unref()
      })
    },
  }
}

type OpenedProject = { parts: ProjectParts; output: string; stop: () => Promise<void> }

/** The default workspace and the named ones; if one cannot be opened, those already opened are stopped. */
async function openWorkspaces(
  options: ServeOptions,
  specs: readonly WorkspaceSpec[],
  tokens: ReadonlyMap<string, string | undefined>,
): Promise<{ opened: OpenedProject[]; named: Map<string, { parts: ProjectParts; token: string | undefined }> }> {
  const opened = [await openProject(options, options.log)]
  const named = new Map<string, { parts: ProjectParts; token: string | undefined }>()
  const outputs = new Map([[opened[0]!.output, 'the serve root (default workspace)']])
  try {
    for (const spec of specs) {
      const project = await openProject({ root: spec.root, env: options.env }, prefixed(options.log, spec.name)).catch(
        (error: unknown) => {
          // Which of several projects has the problem: say the workspace first.
          throw error instanceof ConfigError
            ? new ConfigError(`workspace ${spec.name}: ${error.message}`, { cause: error })
            : error
        },
      )
      opened.push(project)
      // Two projects publishing into one output folder would overwrite each other's index.
      const other = outputs.get(project.output)
      if (other !== undefined)
        throw new ConfigError(
          `workspace ${spec.name}: its output_storage.base_dir ${project.output} is also that of ${other}`,
        )
      outputs.set(project.output, `workspace ${spec.name}`)
      named.set(spec.name, { parts: project.parts, token: tokens.get(spec.name) })
    }
  } catch (error) {
    await Promise.all(opened.map((project) => project.stop()))
    throw error
  }
  return { opened, named }
}

/**
 * One workspace's own query service (and caches), job runner (one job at a time, per project),
 * document catalog and published-index watch: nothing is shared between workspaces.
 */
async function openProject(project: Project, log: LogLine | undefined): Promise<OpenedProject> {
  const { settings } = loadConfig(project)
  const queries = new QueryService(project, {
    embeddings: settings.server.embedding_cache_size,
    answers: settings.server.answer_cache_size,
  })
  // A finished job changes the index: answers cached from the previous one would be stale.
  const jobs = new IndexJobs(project, () => queries.answers.clear(), log)
  // An index in object storage may be republished by another machine: poll its pointer.
  const stopWatching = watchPublished(settings.output_storage.base_dir, () => queries.answers.clear())
  const parts: ProjectParts = {
    queries,
    jobs,
    probe: new ModelProbe(),
    documents: new DocumentCatalog(() => queries.config()),
    maxUploadBytes: settings.server.max_upload_bytes,
  }
  return {
    parts,
    output: settings.output_storage.base_dir,
    stop: async () => {
      stopWatching()
      await jobs.stop()
    },
  }
}

/** A workspace's job lines name it. */
function prefixed(log: LogLine | undefined, name: string): LogLine | undefined {
  return log === undefined ? undefined : (line) => log(`workspace ${name}: ${line}`)
}

/** Each workspace's own token, from GRAPHRAG_SERVER_TOKEN_<NAME> (only the variable's name is ever shown). */
function workspaceTokens(
  specs: readonly WorkspaceSpec[],
  env: Readonly<Record<string, string | undefined>>,
): Map<string, string | undefined> {
  return new Map(specs.map((spec) => [spec.name, env[workspaceTokenVariable(spec.name)]?.trim() || undefined]))
}

/** The address/token rule, for the admin token and each workspace's; a shared token would make its holder ambiguous. */
function checkTokens(host: string, admin: string | undefined, own: ReadonlyMap<string, string | undefined>): void {
  if (!LOOPBACK.has(host) && admin === undefined) {
    throw new ConfigError(
      `binding ${host} exposes the index beyond this machine: set GRAPHRAG_SERVER_TOKEN (clients then send Authorization: Bearer <token>)`,
    )
  }
  const all: [string, string | undefined][] = [
    ['GRAPHRAG_SERVER_TOKEN', admin],
    ...[...own].map(([name, token]): [string, string | undefined] => [workspaceTokenVariable(name), token]),
  ]
  const seen = new Map<string, string>()
  for (const [variable, token] of all) {
    if (token === undefined) continue
    checkToken(host, variable, token)
    const other = seen.get(token)
    if (other !== undefined)
      throw new ConfigError(`${variable} and ${other} hold the same token: give each workspace its own`)
    seen.set(token, variable)
  }
}

function checkToken(host: string, variable: string, token: string): void {
  if (!TOKEN_SYNTAX.test(token))
    throw new ConfigError(`${variable}: use only letters, digits and . _ ~ + / - (it is sent as a bearer token)`)
  if (!LOOPBACK.has(host) && token.length < MIN_REMOTE_TOKEN_LENGTH)
    throw new ConfigError(
      `${variable} has ${token.length} characters: binding ${host} exposes the index beyond this machine, so the token needs at least ${MIN_REMOTE_TOKEN_LENGTH} (e.g. openssl rand -hex 24)`,
    )
}

/** The index in object storage the server reads (undefined for a local folder); the store being unreachable is said, not fatal. */
async function describeRemoteIndex(outputDir: string): Promise<string | undefined> {
  const where = remoteName(outputDir)
  if (where === outputDir) return undefined
  try {
    const published = await publishedIndex(outputDir)
    return published === undefined
      ? `${where} (nothing published yet)`
      : `${published.location} (published ${published.published})`
  } catch (error) {
    return `${where} (not readable now: ${error instanceof Error ? error.message : String(error)})`
  }
}
