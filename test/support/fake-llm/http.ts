/** Small HTTP helpers of the fake server: body reading, JSON replies and deliberately broken replies. */
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { ChatMessageLike } from './classify.js'

export function normaliseMessages(value: unknown): ChatMessageLike[] {
  if (!Array.isArray(value)) return []
  return value.map((m: { role?: unknown; content?: unknown }) => ({
    role: typeof m.role === 'string' ? m.role : 'user',
    content:
      typeof m.content === 'string'
        ? m.content
        : Array.isArray(m.content)
          ? m.content.map((p: { text?: string }) => p.text ?? '').join('')
          : '',
  }))
}

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

export function sendJson(
  res: ServerResponse,
  status: number,
  payload: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(payload)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers })
  res.end(text)
}

/** A 200 whose body is not JSON. */
export function sendBroken(res: ServerResponse, finish: (s: number) => void): void {
  finish(200)
  const text = '{"id": "chatcmpl-broken", "choices": [ {'
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** An HTML error page served with status 200, as some proxies and gateways do. */
export function sendHtml(res: ServerResponse, finish: (s: number) => void): void {
  finish(200)
  const text =
    '<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>'
  res.writeHead(200, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(text) })
  res.end(text)
}

/** Announces the full length, sends half, then drops the connection. */
export function sendTruncated(res: ServerResponse, text: string, finish: (s: number) => void): void {
  finish(200)
  const bytes = Buffer.from(text, 'utf8')
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': bytes.length })
  res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy())
}

export function delay(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve()
}
