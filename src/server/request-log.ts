/**
 * `graphrag serve`'s log: one line per request (method, path, status, milliseconds) and per index
 * job start and end. Only the path is logged: never headers (the bearer token) nor the query string
 * (a client may put a secret there).
 */
import type { MiddlewareHandler } from 'hono'

export type LogLine = (line: string) => void

export function requestLog(log: LogLine): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now()
    await next()
    // An event stream is logged when its headers go out, not when it closes.
    log(`${c.req.method} ${c.req.path} ${c.res.status} ${Math.round(performance.now() - started)} ms`)
  }
}
