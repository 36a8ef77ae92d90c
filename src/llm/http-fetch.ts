/**
 * A `fetch` for the openai SDK over node:http/node:https with keep-alive agents. Node's global fetch
 * (undici) spends CPU on web streams, a cloned request and signal wiring: through the SDK a chat request
 * cost the client ~1.5–1.8 ms with it and ~0.8 ms with this (bench/fetch.mjs). It covers what the SDK sends for chat and embeddings (a string or bytes
 * body, an http(s) URL, redirects followed); anything else (FormData and stream uploads of the Batch
 * API, `redirect: 'manual'`, URLs with credentials) goes to the global fetch unchanged.
 */
import http from 'node:http'
import https from 'node:https'
import { Readable } from 'node:stream'
import zlib from 'node:zlib'

const AGENTS = {
  'http:': new http.Agent({ keepAlive: true }),
  'https:': new https.Agent({ keepAlive: true }),
} as const

const REDIRECTS = new Set([301, 302, 303, 307, 308])
/** Statuses whose Response may not carry a body. */
const NULL_BODY = new Set([101, 204, 205, 304])

interface Plan {
  url: URL
  method: string
  headers: Record<string, string>
  body: string | Uint8Array | undefined
}

/** The `fetch` handed to the openai SDK (OpenAI-compatible and Azure clients). */
export function httpFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const plan = planOf(input, init)
  if (plan === undefined) return fetch(input, init)
  const signal = init?.signal ?? undefined
  return send(plan, signal, false).then((response) =>
    // Followed as the global fetch follows them (method and body rules per status); rare, so not inlined here.
    response === 'redirect' ? fetch(input, init) : response,
  )
}

function planOf(input: string | URL | Request, init: RequestInit | undefined): Plan | undefined {
  if (typeof input !== 'string' && !(input instanceof URL)) return undefined
  if (init?.redirect !== undefined && init.redirect !== 'follow') return undefined
  const body = init?.body ?? undefined
  if (body !== undefined && typeof body !== 'string' && !(body instanceof Uint8Array)) return undefined
  const url = new URL(input)
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
    return undefined
  }
  return { url, method: (init?.method ?? 'GET').toUpperCase(), headers: headersOf(init?.headers, url, body), body }
}

function headersOf(given: RequestInit['headers'], url: URL, body: Plan['body']): Record<string, string> {
  const headers: Record<string, string> = {}
  for (const [name, value] of new Headers(given)) headers[name] = value
  // As undici asks: brotli only over TLS.
  headers['accept-encoding'] ??= url.protocol === 'https:' ? 'br, gzip, deflate' : 'gzip, deflate'
  // node:http sets content-length itself for a body given whole to end().
  if (typeof body === 'string') headers['content-type'] ??= 'text/plain;charset=UTF-8'
  return headers
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError')
}

function send(plan: Plan, signal: AbortSignal | undefined, retried: boolean): Promise<Response | 'redirect'> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal))
    const request = (plan.url.protocol === 'https:' ? https : http).request(plan.url, {
      method: plan.method,
      headers: plan.headers,
      agent: AGENTS[plan.url.protocol as keyof typeof AGENTS],
    })
    const onAbort = () => {
      const reason = abortReason(signal as AbortSignal)
      request.destroy(reason as Error)
      reject(reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    const done = () => signal?.removeEventListener('abort', onAbort)
    // Once a reply has begun, the request is not sent again whatever happens to the socket.
    let answered = false
    request.on('error', (error: NodeJS.ErrnoException) => {
      if (signal?.aborted) return
      done()
      // A kept-alive socket the server closed while idle: send once more on a fresh one (as Node's docs advise).
      if (request.reusedSocket && error.code === 'ECONNRESET' && !retried && !answered) {
        resolve(send(plan, signal, true))
      } else reject(new TypeError('fetch failed', { cause: error }))
    })
    request.on('response', (res) => {
      answered = true
      responseOf(res, plan, signal).then(resolve, reject).finally(done)
    })
    request.end(plan.body)
  })
}

/** The decoded body stream of a reply, as undici decodes `content-encoding`. */
function decoded(res: http.IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase()
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
      : encoding === 'deflate'
        ? zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH })
        : encoding === 'br'
          ? zlib.createBrotliDecompress({
              flush: zlib.constants.BROTLI_OPERATION_FLUSH,
              finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
            })
          : undefined
  if (decoder === undefined) return res
  res.on('error', (error) => decoder.destroy(error))
  return res.pipe(decoder)
}

async function responseOf(
  res: http.IncomingMessage,
  plan: Plan,
  signal: AbortSignal | undefined,
): Promise<Response | 'redirect'> {
  const status = res.statusCode ?? 0
  if (REDIRECTS.has(status) && res.headers.location !== undefined) {
    res.resume()
    return 'redirect'
  }
  const headers: [string, string][] = []
  for (let i = 0; i < res.rawHeaders.length; i += 2)
    headers.push([res.rawHeaders[i], res.rawHeaders[i + 1]] as [string, string])
  const init = { status, statusText: res.statusMessage ?? '', headers }
  let response: Response
  if (NULL_BODY.has(status) || plan.method === 'HEAD') {
    res.resume()
    response = new Response(null, init)
  } else if ((res.headers['content-type'] ?? '').includes('text/event-stream')) {
    response = new Response(streamed(decoded(res), signal), init)
  } else {
    response = new WholeResponse(await collected(decoded(res)), init) as unknown as Response
  }
  Object.defineProperty(response, 'url', { value: plan.url.href })
  return response
}

/** A whole (JSON) reply in one buffer: cheaper than a web stream for the SDK's `.json()`/`.text()`. */
function collected(body: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    body.on('data', (chunk: Buffer) => chunks.push(chunk))
    body.on('end', () => resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)))
    body.on('error', (error) => reject(new TypeError('fetch failed', { cause: error })))
  })
}

/** Server-sent events reach the SDK as they arrive; an abort while they do errors the stream with its reason. */
function streamed(body: Readable, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  if (signal !== undefined) {
    const onAbort = () => body.destroy(abortReason(signal) as Error)
    signal.addEventListener('abort', onAbort, { once: true })
    body.once('close', () => signal.removeEventListener('abort', onAbort))
  }
  return Readable.toWeb(body) as ReadableStream<Uint8Array>
}

// Typed as the fields it reads: the DOM types declare Response's methods as properties, which a subclass may not redefine as methods.
const ResponseBase = Response as unknown as new (
  body: null,
  init: ResponseInit,
) => Pick<Response, 'status' | 'statusText' | 'headers' | 'url'>

/**
 * A Response over a body already read whole. `text()`, `json()` and `arrayBuffer()` read the buffer; the
 * web stream a Response body is (~0.07 ms of CPU per request on Node 20) is made only if something asks
 * for `body`, `blob()` or `formData()`, through a real Response over the same bytes.
 */
class WholeResponse extends ResponseBase {
  readonly #bytes: Buffer
  #inner: Response | undefined
  #used = false

  constructor(bytes: Buffer, init: ResponseInit) {
    super(null, init)
    this.#bytes = bytes
  }

  #take(): Buffer {
    if (this.#inner !== undefined || this.#used) throw new TypeError('Body is unusable: Body has already been read')
    this.#used = true
    return this.#bytes
  }

  /** The real Response the other body methods read; the fast paths are closed once it exists. */
  whole(): Response {
    if (this.#used) throw new TypeError('Body is unusable: Body has already been read')
    this.#inner ??= new Response(this.#bytes)
    return this.#inner
  }

  get consumed(): boolean {
    return this.#used || this.#inner?.bodyUsed === true
  }

  text(): Promise<string> {
    if (this.#inner !== undefined) return this.#inner.text()
    try {
      // As a web text(): UTF-8, a leading byte-order mark dropped.
      return Promise.resolve(new TextDecoder().decode(this.#take()))
    } catch (error) {
      return Promise.reject(error)
    }
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text())
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#inner !== undefined) return this.#inner.arrayBuffer()
    try {
      const bytes = this.#take()
      return Promise.resolve(new Uint8Array(bytes).buffer as ArrayBuffer)
    } catch (error) {
      return Promise.reject(error)
    }
  }

  blob(): Promise<Blob> {
    return this.whole().blob()
  }

  formData(): Promise<FormData> {
    return this.whole().formData()
  }

  clone(): WholeResponse {
    if (this.consumed) throw new TypeError('Response.clone: Body has already been consumed.')
    const copy = new WholeResponse(this.#bytes, {
      status: this.status,
      statusText: this.statusText,
      headers: this.headers,
    })
    Object.defineProperty(copy, 'url', { value: this.url })
    return copy
  }
}

// Accessors, not fields: Response declares body and bodyUsed as properties its prototype computes.
Object.defineProperties(WholeResponse.prototype, {
  body: {
    get(this: WholeResponse) {
      return this.whole().body
    },
  },
  bodyUsed: {
    get(this: WholeResponse) {
      return this.consumed
    },
  },
})
