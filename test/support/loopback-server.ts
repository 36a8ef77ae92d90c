/**
 * What every test server and proxy in test/support does the same way: listen on an ephemeral port of
 * 127.0.0.1, close with its keep-alive connections (a test must not wait for an idle socket to time
 * out), and forward a request untouched to another server (headers kept, so request signatures hold).
 */
import { request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface Listening {
  port: number
  /** `http://127.0.0.1:PORT` */
  root: string
  close(): Promise<void>
}

export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    port,
    root: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** Sends `req` to the same path on `to` and pipes the reply back; `body` when already read, else streamed. */
export function forwardRequest(to: URL, req: IncomingMessage, res: ServerResponse, body?: Buffer): void {
  const upstream = httpRequest(
    { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
    (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers)
      reply.pipe(res)
    },
  )
  upstream.on('error', () => res.destroy())
  if (body) upstream.end(body)
  else req.pipe(upstream)
}
