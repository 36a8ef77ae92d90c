/**
 * What keeps a web page from driving the server through the user's browser:
 * - the Host header must name this server (an IP address, localhost, the bound host or
 *   `server.allowed_hosts`), so a DNS-rebinding page whose own name now points at 127.0.0.1 is refused;
 * - a state-changing request from another origin is refused unless `server.cors_origins` names it
 *   (browsers send Origin on cross-origin POST/DELETE, forms included);
 * - POST bodies must be JSON (multipart for uploads): a page can send text/plain or form bodies
 *   without a CORS preflight, never application/json;
 * - CORS headers only for the origins `server.cors_origins` lists.
 */
import { isIP } from 'node:net'
import type { MiddlewareHandler } from 'hono'
import { cors } from 'hono/cors'
import { RequestError } from '../errors.js'
import { projectPath } from './workspace-auth.js'

export interface WebGuardSettings {
  /** The address the server is bound to (--host or server.host). */
  boundHost: string
  allowedHosts: readonly string[]
  corsOrigins: readonly string[]
}

/** Paths whose POST body is multipart/form-data (file uploads); every other POST takes JSON. */
export const MULTIPART_PATHS: ReadonlySet<string> = new Set(['/documents'])

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** The host name of a Host header value (`[::1]:8010` → `::1`, `Example.org:80` → `example.org`). */
function hostName(header: string): string {
  const value = header.trim().toLowerCase()
  if (isIP(value) !== 0) return value
  if (value.startsWith('[')) return value.slice(1, value.indexOf(']'))
  const colon = value.lastIndexOf(':')
  return colon < 0 ? value : value.slice(0, colon)
}

export function hostGuard(settings: WebGuardSettings): MiddlewareHandler {
  const names = new Set(['localhost', hostName(settings.boundHost), ...settings.allowedHosts.map(hostName)])
  return async (c, next) => {
    const header = c.req.header('host')
    const name = header === undefined ? '' : hostName(header)
    // A rebinding attack needs a DNS name of its own: IP literals cannot be rebound.
    if (isIP(name) === 0 && !names.has(name)) {
      throw new RequestError(
        403,
        header === undefined
          ? 'the request has no Host header'
          : `Host "${name}" is not a name of this server; add it to server.allowed_hosts if it is`,
      )
    }
    await next()
  }
}

export function originGuard(settings: WebGuardSettings): MiddlewareHandler {
  const allowed = new Set(settings.corsOrigins.map((o) => o.replace(/\/+$/, '').toLowerCase()))
  return async (c, next) => {
    if (STATE_CHANGING.has(c.req.method)) {
      const origin = c.req.header('origin')
      if (origin !== undefined && !sameOrigin(origin, c.req.header('host')) && !allowed.has(origin.toLowerCase()))
        throw new RequestError(
          403,
          `cross-origin request from ${origin} refused; list the origin in server.cors_origins to allow it`,
        )
    }
    await next()
  }
}

/** The page was served by this server (the web UI): its origin's host:port is our Host header. */
function sameOrigin(origin: string, host: string | undefined): boolean {
  if (host === undefined || origin === 'null') return false
  try {
    return new URL(origin).host.toLowerCase() === host.toLowerCase()
  } catch {
    return false
  }
}

/** POSTs that need no body (the seed API's `POST /cache/clear`): sent without one, they need no content type either. */
const BODYLESS_PATHS = ['/cache/clear']

function bodylessAllowed(path: string, headers: Record<string, string>): boolean {
  if (!BODYLESS_PATHS.some((p) => path.endsWith(p))) return false
  const length = headers['content-length']
  return length === '0' || (length === undefined && headers['transfer-encoding'] === undefined)
}

export function contentTypeGuard(): MiddlewareHandler {
  return async (c, next) => {
    if (c.req.method === 'POST' && !bodylessAllowed(c.req.path, c.req.header())) {
      const media = (c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase()
      const multipart = MULTIPART_PATHS.has(projectPath(c.req.path))
      const ok = multipart ? media === 'multipart/form-data' : /^application\/([\w.-]+\+)?json$/.test(media)
      if (!ok)
        throw new RequestError(
          415,
          `POST ${c.req.path} needs Content-Type: ${multipart ? 'multipart/form-data' : 'application/json'}` +
            (media === '' ? '' : ` (got ${media})`),
        )
    }
    await next()
  }
}

/** CORS headers (and preflight answers) for the listed origins only; none listed → no CORS at all. */
export function corsFor(settings: WebGuardSettings): MiddlewareHandler | undefined {
  if (settings.corsOrigins.length === 0) return undefined
  return cors({
    origin: settings.corsOrigins.map((o) => o.replace(/\/+$/, '')),
    allowMethods: ['GET', 'POST', 'DELETE', 'OPTIONS'],
    allowHeaders: ['Authorization', 'Content-Type', 'Mcp-Session-Id', 'Mcp-Protocol-Version', 'Last-Event-ID'],
    exposeHeaders: ['Mcp-Session-Id', 'X-Graphrag-Cache'],
    maxAge: 600,
  })
}
