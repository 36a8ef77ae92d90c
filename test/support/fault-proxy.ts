/**
 * A forwarding HTTP proxy on 127.0.0.1 that injects store faults: every `every`-th request gets
 * the next fault of `faults` (a 503, 500 or 429 reply, or a connection reset) instead of reaching
 * the server (`every: 1` faults every request). Headers are passed through untouched, so request
 * signatures stay valid.
 */
import { createServer, type Server } from 'node:http'
import { forwardRequest, listenOnLoopback } from './loopback-server.js'

/** A reply status, a connection reset, or `stall`: the request is read and never answered. */
export type Fault = 503 | 500 | 429 | 'reset' | 'stall'

export interface FaultProxy {
  url: string
  port: number
  injected(): number
  close(): Promise<void>
}

export async function startFaultProxy(
  target: string,
  options: { every: number; faults: Fault[] },
): Promise<FaultProxy> {
  const to = new URL(target)
  let seen = 0
  let injected = 0
  const server: Server = createServer((req, res) => {
    seen++
    if (seen % options.every === 0) {
      const fault = options.faults[injected++ % options.faults.length]!
      req.resume()
      if (fault === 'reset') {
        req.socket.destroy()
        return
      }
      if (fault === 'stall') return
      res.writeHead(fault, { 'content-type': 'application/xml', 'retry-after': '0' })
      res.end('<?xml version="1.0" encoding="utf-8"?><Error><Code>ServerBusy</Code><Message>injected</Message></Error>')
      return
    }
    forwardRequest(to, req, res)
  })
  const listening = await listenOnLoopback(server)
  return {
    url: listening.root,
    port: listening.port,
    injected: () => injected,
    close: listening.close,
  }
}
