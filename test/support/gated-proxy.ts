/**
 * A slow model on demand: a forwarding proxy on 127.0.0.1 that holds every request until `release()`
 * (then forwards the held ones and all later ones untouched). `held` settles when the first request
 * arrives, so a test can order its steps by events instead of by wall time.
 */
import { createServer } from 'node:http'
import { forwardRequest, listenOnLoopback } from './loopback-server.js'

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
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (chunk: Buffer) => chunks.push(chunk))
    req.on('end', () => {
      const send = () => forwardRequest(to, req, res, Buffer.concat(chunks))
      if (open) return send()
      queue.push(send)
      markHeld()
    })
  })
  const listening = await listenOnLoopback(server)
  return {
    url: `${listening.root}${to.pathname.replace(/\/$/, '')}`,
    held,
    waiting: () => queue.length,
    release: () => {
      open = true
      for (const send of queue.splice(0)) send()
    },
    close: listening.close,
  }
}
