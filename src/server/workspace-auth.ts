/**
 * Who may reach which workspace. The admin token (GRAPHRAG_SERVER_TOKEN) reaches every workspace; a
 * workspace's own token (GRAPHRAG_SERVER_TOKEN_<NAME>) reaches only its `/w/{name}/…` routes and the
 * server-wide ones (/openapi.json, /workspaces). A token that does not reach a workspace gets the same
 * 404 as a name that does not exist, so no token learns the names of workspaces it cannot reach.
 * Without any token configured the server is open (it then listens on loopback only).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { MiddlewareHandler } from 'hono'
import { RequestError } from '../errors.js'

export interface AuthTable {
  /** The admin token; undefined = the default workspace needs no token. */
  admin: string | undefined
  /** Each named workspace with its own token (undefined = only the admin token, or none, guards it). */
  workspaces: ReadonlyMap<string, string | undefined>
}

/** What a request's path addresses: a named workspace, the default one, or the server itself. */
type Target = { kind: 'workspace'; name: string } | { kind: 'default' } | { kind: 'server' }

type Caller = { kind: 'admin' } | { kind: 'workspace'; name: string } | { kind: 'anonymous' }

/** Routes of the server itself (not of a project): reachable with any valid token. */
const SERVER_PATHS = new Set(['/openapi.json', '/workspaces'])
const WORKSPACE_PATH = /^\/w\/([^/]+)(?:\/|$)/

function targetOf(path: string): Target {
  const match = WORKSPACE_PATH.exec(path)
  if (match !== null) return { kind: 'workspace', name: match[1]! }
  return SERVER_PATHS.has(path) ? { kind: 'server' } : { kind: 'default' }
}

/** The path inside its workspace: `/w/docs/documents` → `/documents` (the guards compare these). */
export function projectPath(path: string): string {
  const match = WORKSPACE_PATH.exec(path)
  return match === null ? path : `/${path.slice(match[0].length)}`
}

const digest = (token: string) => createHash('sha256').update(token).digest()

/** The caller a bearer token identifies; every known token is compared (in constant time), whichever matches. */
function identify(table: AuthTable, token: string | undefined): Caller | undefined {
  if (token === undefined) return { kind: 'anonymous' }
  const given = digest(token)
  let caller: Caller | undefined
  if (table.admin !== undefined && timingSafeEqual(given, digest(table.admin))) caller = { kind: 'admin' }
  for (const [name, own] of table.workspaces)
    if (own !== undefined && timingSafeEqual(given, digest(own))) caller ??= { kind: 'workspace', name }
  return caller
}

type Verdict = 'allowed' | 'unauthorized' | 'hidden' | 'elsewhere'

/** Whether `caller` (undefined: a token that matches none) may reach `target`. */
function decide(table: AuthTable, caller: Caller | undefined, target: Target): Verdict {
  const anyToken = needsToken(table)
  if (caller?.kind === 'admin')
    return target.kind === 'workspace' && !table.workspaces.has(target.name) ? 'hidden' : 'allowed'
  if (target.kind === 'server')
    return !anyToken || (caller !== undefined && caller.kind !== 'anonymous') ? 'allowed' : 'unauthorized'
  if (target.kind === 'default') {
    if (table.admin === undefined) return 'allowed'
    return caller?.kind === 'workspace' ? 'elsewhere' : 'unauthorized'
  }
  const exists = table.workspaces.has(target.name)
  const own = table.workspaces.get(target.name)
  const open = exists && own === undefined && table.admin === undefined
  if (open || (caller?.kind === 'workspace' && caller.name === target.name && exists)) return 'allowed'
  // Without a valid token, say only that one is needed (whether or not the name exists).
  if (anyToken && (caller === undefined || caller.kind === 'anonymous')) return 'unauthorized'
  return 'hidden'
}

const UNAUTHORIZED = 'missing or wrong bearer token (Authorization: Bearer <GRAPHRAG_SERVER_TOKEN>)'

/** The bearer check of every route behind it, by workspace. */
export function workspaceAuth(table: AuthTable): MiddlewareHandler {
  return async (c, next) => {
    const caller = identify(table, bearer(c.req.header('authorization')))
    const target = targetOf(c.req.path)
    const verdict = decide(table, caller, target)
    if (verdict === 'unauthorized') {
      c.header('WWW-Authenticate', 'Bearer realm="graphrag"')
      throw new RequestError(401, UNAUTHORIZED)
    }
    if (verdict === 'hidden' && target.kind === 'workspace')
      throw new RequestError(404, `no workspace ${JSON.stringify(target.name)} on this server for this token`)
    if (verdict === 'elsewhere' && caller?.kind === 'workspace')
      throw new RequestError(
        403,
        `this token reaches only workspace ${caller.name}: its routes are under /w/${caller.name}/`,
      )
    await next()
  }
}

/** The token of `Authorization: Bearer <token>`; any other Authorization header is a 400. */
function bearer(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const match = /^Bearer +([A-Za-z0-9._~+/-]+=*) *$/i.exec(header)
  if (match === null) throw new RequestError(400, 'Authorization: expected "Bearer <token>"')
  return match[1]
}

/** Whether any token is configured (none: no check at all, as on a loopback-only single project). */
export function needsToken(table: AuthTable): boolean {
  return table.admin !== undefined || [...table.workspaces.values()].some((t) => t !== undefined)
}

/** GET /workspaces: the workspaces this request's token reaches (and only those), for the web UI's switcher. */
export function reachableWorkspaces(
  table: AuthTable,
  authorization: string | undefined,
): { default: boolean; workspaces: { name: string; path: string }[] } {
  const caller = identify(table, needsToken(table) ? bearer(authorization) : undefined)
  const reaches = (target: Target) => decide(table, caller, target) === 'allowed'
  return {
    default: reaches({ kind: 'default' }),
    workspaces: [...table.workspaces.keys()]
      .filter((name) => reaches({ kind: 'workspace', name }))
      .map((name) => ({ name, path: `/w/${name}/` })),
  }
}
