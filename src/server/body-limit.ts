/** Request size limits: a body bigger than the setting allows gets a 413 naming the setting to raise. */
import type { MiddlewareHandler } from 'hono'
import { bodyLimit } from 'hono/body-limit'
import { RequestError } from '../errors.js'
import { projectPath } from './workspace-auth.js'

export function limitBody(maxBytes: number, setting: string): MiddlewareHandler {
  return bodyLimit({
    maxSize: maxBytes,
    onError: () =>
      Promise.reject(new RequestError(413, `the request body is larger than ${maxBytes} bytes (${setting})`)),
  })
}

/** Every request but uploads (which have their own, larger limit on their route). */
export function limitNonUploads(maxBytes: number, uploadPaths: ReadonlySet<string>): MiddlewareHandler {
  const limit = limitBody(maxBytes, 'server.max_body_bytes')
  return (c, next) => (c.req.method === 'POST' && uploadPaths.has(projectPath(c.req.path)) ? next() : limit(c, next))
}
