/** HTTP of the Batch API clients: fixed auth headers, and every failure as an AttemptFailure (auth replies never quoted). */
import { AttemptFailure, isRetryableStatus } from '../failure.js'
import { redactUrls, safeUrl } from '../safe-url.js'

export interface BatchHttp {
  json(method: string, url: string, body?: unknown): Promise<unknown>
  text(method: string, url: string): Promise<string>
  /** A multipart upload (OpenAI's files API); the reply's JSON. */
  upload(url: string, form: FormData): Promise<unknown>
}

/** Fixed auth headers, or a function that makes them for each request (a bearer token that expires). */
type AuthHeaders = Readonly<Record<string, string>> | (() => Promise<Readonly<Record<string, string>>>)

export function batchHttp(base: string, auth: AuthHeaders): BatchHttp {
  async function send(method: string, url: string, body?: string | FormData): Promise<Response> {
    const headers = typeof auth === 'function' ? await auth() : auth
    let reply: Response
    try {
      reply = await fetch(url, {
        method,
        headers: typeof body === 'string' ? { ...headers, 'content-type': 'application/json' } : headers,
        body,
      })
    } catch (error) {
      throw new AttemptFailure(`cannot reach the batch API at ${safeUrl(base)} (${redactUrls(String(error))})`, {
        kind: 'connection',
        retryable: true,
        cause: error,
      })
    }
    if (!reply.ok) throw await httpFailure(reply, `${method} ${new URL(url).pathname}`)
    return reply
  }
  return {
    json: async (method, url, body) =>
      (await send(method, url, body === undefined ? undefined : JSON.stringify(body))).json(),
    text: async (method, url) => (await send(method, url)).text(),
    upload: async (url, form) => (await send('POST', url, form)).json(),
  }
}

async function httpFailure(reply: Response, what: string): Promise<AttemptFailure> {
  const status = reply.status
  // Auth replies echo (part of) the key: their text is not passed on.
  const auth = status === 401 || status === 403
  let message = ''
  if (!auth) {
    const text = await reply.text()
    try {
      message = (JSON.parse(text) as { error?: { message?: string } }).error?.message ?? text
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error
      message = text
    }
  }
  return new AttemptFailure(
    `batch API ${what}: HTTP ${status}${auth ? '' : `: ${redactUrls(message.slice(0, 300))}`}`,
    {
      kind: 'http',
      status,
      retryable: isRetryableStatus(status),
    },
  )
}
