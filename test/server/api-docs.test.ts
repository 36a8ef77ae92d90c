/**
 * GET /docs (issue 43 item 6): the API reference rendered on the server from the OpenAPI document,
 * reachable without the token like the web UI page, under the UI's CSP, with no script, and with an
 * entry for every operation of the document.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { operationAnchor } from '../../src/server/api-docs.js'
import { OPENAPI } from '../../src/server/openapi.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { testdir } from '../support/testdir.js'

describe('GET /docs', () => {
  let server: RunningServer
  beforeAll(async () => {
    const root = await testdir({ 'settings.yaml': 'input:\n  type: text\n' })
    server = await startServer({ root, port: 0, token: 'docs-token-1', env: {} })
  })
  afterAll(() => server?.close())

  it('is an offline HTML page of every operation, under the web UI CSP, without the token', async () => {
    const page = await fetch(`${server.url}/docs`)
    expect(page.status).toBe(200)
    expect(page.headers.get('content-type')).toMatch(/^text\/html/)
    const ui = await fetch(`${server.url}/`)
    expect(page.headers.get('content-security-policy')).toBe(ui.headers.get('content-security-policy'))
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'")
    const html = await page.text()
    expect(html).not.toMatch(/<script|https?:\/\/(?!127\.)/)
    const operations = Object.entries(OPENAPI.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => [method, path] as const),
    )
    expect(operations.length).toBeGreaterThan(20)
    for (const [method, path] of operations)
      expect(html, `${method} ${path}`).toContain(`id="${operationAnchor(method, path)}"`)
    // Parameters and shared schemas are shown, with links from a $ref to its schema.
    expect(html).toContain('<code>status</code>')
    expect(html).toContain('<a href="#schema-Document">Document</a>')
    expect(html).toContain('id="schema-Document"')
    const style = await fetch(`${server.url}/docs/style.css`)
    expect(style.status).toBe(200)
    expect(style.headers.get('content-type')).toMatch(/^text\/css/)
    // The data routes stay behind the token.
    expect((await fetch(`${server.url}/openapi.json`)).status).toBe(401)
  })
})
