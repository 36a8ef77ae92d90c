/**
 * A fake reranker on 127.0.0.1: POST /rerank (or /v1/rerank) in the Cohere shape ({query, documents}
 * → {results: [{index, relevance_score}]}, best first) or the TEI shape ({query, texts} → [{index,
 * score}]). A document scores the share of the query's words it contains, times 0.9. Requests are
 * recorded; `failNext` answers the next requests with an error status; with `key` set, any other
 * bearer token gets 401 with a body that echoes it (as some providers do), to check it never leaks.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { listenOnLoopback } from './loopback-server.js'

interface FakeRerankRequest {
  path: string
  headers: IncomingHttpHeaders
  body: Record<string, unknown>
  status: number
}

export interface FakeReranker {
  baseUrl: string
  requests: FakeRerankRequest[]
  failNext(count: number, status: number): void
  close(): Promise<void>
}

export function fakeRelevance(query: string, document: string): number {
  const words = (t: string) => new Set(t.toLowerCase().match(/[a-z0-9]+/g) ?? [])
  const asked = words(query)
  const has = words(document)
  return asked.size === 0 ? 0 : (0.9 * [...asked].filter((w) => has.has(w)).length) / asked.size
}

export async function startFakeReranker(options: { key?: string } = {}): Promise<FakeReranker> {
  const requests: FakeRerankRequest[] = []
  let failures: { count: number; status: number } = { count: 0, status: 500 }
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')))
    req.on('end', () => {
      const body = JSON.parse(raw || '{}') as Record<string, unknown>
      const send = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
        requests.push({ path: req.url ?? '', headers: req.headers, body, status })
        res.writeHead(status, { 'content-type': 'application/json', ...headers })
        res.end(JSON.stringify(payload))
      }
      if (req.method !== 'POST' || !/^(\/v1)?\/rerank$/.test(req.url ?? '')) return send(404, { error: 'not found' })
      const token = (req.headers.authorization ?? '').replace(/^Bearer /, '')
      if (options.key !== undefined && token !== options.key)
        return send(401, { message: `invalid api token ${token}` })
      if (failures.count > 0) {
        failures = { ...failures, count: failures.count - 1 }
        return send(failures.status, { message: 'overloaded, try again' }, { 'retry-after-ms': '1' })
      }
      const query = String(body.query ?? '')
      const tei = Array.isArray(body.texts)
      const docs = ((tei ? body.texts : body.documents) ?? []) as string[]
      const scored = docs
        .map((d, index) => ({ index, score: fakeRelevance(query, d) }))
        .sort((a, b) => b.score - a.score || a.index - b.index)
      if (tei) return send(200, scored)
      send(200, { id: 'r1', results: scored.map((s) => ({ index: s.index, relevance_score: s.score })) })
    })
  })
  const listening = await listenOnLoopback(server)
  return {
    baseUrl: listening.root,
    requests,
    failNext: (count, status) => (failures = { count, status }),
    close: listening.close,
  }
}
