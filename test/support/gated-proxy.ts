/**
 * A slow model on demand: a forwarding proxy on 127.0.0.1 that holds every request until `release()`
 * (then forwards the held ones and all later ones untouched). `held` settles when the first request
 * arrives, so a test can order its steps by events instead of by wall time.
 */
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface GatedProxy {
  /** `http://127.0.0.1:PORT` + the target's path (e.g. /v1). */
  url: string
  /** Settles when the first request is being held. */
  held: Promise<void>
  /** Requests received but not yet answered upstream. */
  waiting(): number
  release(): void
  close(): Promise<void>
}

export async function startGatedProxy(target: string): Promise<GatedProxy> {
  const to = new URL(target)
  let open = false
  let markHeld: () => void = () => {}
  const held = new Promise<void>((resolve) => (markHeld = resolve))
  const queue: (() => void)[] = []
  const forward = (req: IncomingMessage, res: ServerResponse, body: Buffer) => {
    const upstream = httpRequest(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (reply) => {
        res.writeHead(reply.statusCode ?? 502, reply.headers)
        reply.pipe(res)
      },
    )
    upstream.on('error', () => res.destroy())
    upstream.end(body)
  }
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const send = () => forward(req, res, Buffer.concat(chunks))
      if (open) return send()
      queue.push(send)
      markHeld()
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}${to.pathname.replace(/\/$/, '')}`,
    held,
    waiting: () => queue.length,
    release: () => {
      open = true
      for (const send of queue.splice(0)) send()
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
