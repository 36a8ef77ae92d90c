/**
 * The seed API's error shape beside ours: every JSON error reply `{"error": {message, type}}` also
 * carries `"detail": message` (what the seed design's clients read), and with `server.debug_errors`
 * a `trace` of stack frames. The frames name only source lines: the message, which may quote a
 * model's reply or a setting, stays out of it.
 */
import type { MiddlewareHandler } from 'hono'

/** Stack frames of the errors the error handler answered, by request, until the reply is rewritten. */
const traces = new WeakMap<Request, string>()

export function rememberTrace(request: Request, error: unknown): void {
  if (!(error instanceof Error) || error.stack === undefined) return
  const frames = error.stack
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .map((line) => line.trim())
  traces.set(request, frames.join('\n'))
}

/** Adds `detail` (and `trace` when `debug()` says so) to JSON error replies that carry our `error.message`. */
export function errorDetail(debug: () => boolean): MiddlewareHandler {
  return async (c, next) => {
    await next()
    const res = c.res
    if (res.status < 400 || !(res.headers.get('content-type') ?? '').startsWith('application/json')) return
    const body = (await res.clone().json()) as Record<string, unknown>
    const message = (body.error as { message?: unknown } | undefined)?.message
    if (typeof message !== 'string' || 'detail' in body) return
    const trace = traces.get(c.req.raw)
    const withDetail = { ...body, detail: message, ...(trace !== undefined && debug() ? { trace } : {}) }
    const headers = new Headers(res.headers)
    headers.delete('content-length')
    c.res = undefined
    c.res = new Response(JSON.stringify(withDetail), { status: res.status, headers })
  }
}
