/**
 * Cases of the web guards that a planted bug went through unnoticed (issue 46, item 3):
 * server.allowed_hosts entries normalised for case and port like the Host header; the Origin check
 * comparing host:port (a page on another port of 127.0.0.1 is another origin); UTF-16 BE uploads.
 */
import { request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { sniffUpload } from '../../src/server/file-sniff.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { noModelSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

const SETTINGS = noModelSettingsYaml(['server:', '  allowed_hosts: [Graphrag.Internal, "docs.example:8443"]'])

/** A request with a Host header of our choosing (fetch does not let one set it). */
function statusWith(url: string, headers: Record<string, string>, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      res.resume()
      res.on('end', () => resolve(res.statusCode ?? 0))
    })
    req.on('error', reject)
    req.end(method === 'POST' ? '{}' : undefined)
  })
}

describe('web guards', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await startServer({ root: await testdir({ 'settings.yaml': SETTINGS }), port: 0, env: {} })
  })
  afterAll(() => server?.close())

  it('allowed_hosts written with capitals or a port match the Host header whatever its case and port', async () => {
    const status = (host: string) => statusWith(`${server.url}/health`, { host })
    for (const host of ['graphrag.internal', `GRAPHRAG.INTERNAL:${server.port}`, 'docs.example', 'Docs.Example:80'])
      expect(await status(host), host).toBe(200)
    expect(await status('graphrag.internal.evil.example')).toBe(403)
  })

  it('a POST from a page on another port of the same host is cross-origin, the same host:port is not', async () => {
    const post = (origin: string) =>
      statusWith(
        `${server.url}/cache/clear`,
        { 'content-type': 'application/json', origin, host: `127.0.0.1:${server.port}` },
        'POST',
      )
    expect(await post(`http://127.0.0.1:${server.port}`)).toBe(200)
    expect(await post(`http://127.0.0.1:${server.port + 1}`)).toBe(403)
    expect(await post('http://127.0.0.1')).toBe(403)
  })
})

describe('uploads in UTF-16', () => {
  const utf16be = (text: string) => {
    const out = new Uint8Array(2 + text.length * 2)
    out.set([0xfe, 0xff])
    for (let i = 0; i < text.length; i++) out.set([text.charCodeAt(i) >> 8, text.charCodeAt(i) & 0xff], 2 + i * 2)
    return out
  }

  it('a UTF-16 BE text with its BOM is text (its NUL bytes are the encoding); without a BOM it is refused', () => {
    const bytes = utf16be('Ada kept the light on Tern Rocks.\n')
    expect(bytes.includes(0)).toBe(true)
    expect(sniffUpload('notes.txt', bytes, 1 << 20)).toEqual({ ok: true, kind: 'text' })
    expect(sniffUpload('notes.md', bytes, 1 << 20).ok).toBe(true)
    expect(sniffUpload('notes.txt', bytes.subarray(2), 1 << 20)).toMatchObject({ ok: false, status: 415 })
  })
})
