/**
 * Workspaces (issue 43 item 9): one server, the serve root's project at the plain routes and two more
 * under /w/{name}/, each with its own token beside an admin token. A token reaches only its own
 * workspace (the others answer exactly as a name that does not exist); each workspace has its own
 * jobs, so a job held on a slow model in one does not hold up queries in the other.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { startGatedProxy, type GatedProxy } from '../support/gated-proxy.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'
import { readSse } from './sse.js'

/** Offline indexing and answers: local hashing embeddings, no chat model. */
const OFFLINE = offlineFastSettingsYaml(['basic_search:', '  completion_model_id: null'])

const TOKENS = { admin: 'admin-token-1', a: 'alpha-token-1', b: 'bravo-token-1' }
const as = (token: string, init: RequestInit = {}): RequestInit => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${token}` },
})
const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})

describe('workspaces on one server', () => {
  let fake: FakeLlm
  let gate: GatedProxy
  let roots: { main: string; a: string; b: string }
  let server: RunningServer
  const url = (path: string) => `${server.url}${path}`

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8 })
    gate = await startGatedProxy(fake.baseUrl)
    const a = await testdir({
      'settings.yaml': [
        fakeModelSettingsYaml(gate.url, { maxRetries: 0 }),
        'method: fast',
        'vector_store:\n  vector_size: 8',
        '',
      ].join('\n'),
      'input/alpha.txt': 'Captain Elsa Marr sailed the Windward from Harrowmere to the northern isles.\n',
    })
    const b = await testdir({
      'settings.yaml': OFFLINE,
      'input/bravo.txt': 'The keeper Ada Quill kept the lighthouse on Tern Rocks.\n',
    })
    // Workspace a comes from the serve root's settings, b from the --workspace flag.
    const main = await testdir({
      'settings.yaml': `${OFFLINE}server:\n  workspaces:\n    alpha: ${JSON.stringify(a)}\n`,
      'input/main.txt': 'The miller Tobias Fenn ground barley at Oakhollow.\n',
    })
    roots = { main, a, b }
    server = await startServer({
      root: main,
      port: 0,
      workspaces: [{ name: 'bravo', root: b }],
      env: {
        GRAPHRAG_SERVER_TOKEN: TOKENS.admin,
        GRAPHRAG_SERVER_TOKEN_ALPHA: TOKENS.a,
        GRAPHRAG_SERVER_TOKEN_BRAVO: TOKENS.b,
      },
    })
  }, 60_000)
  afterAll(async () => {
    gate?.release()
    await server?.close()
    await gate?.close()
    await fake?.close()
  })

  it('lists the workspaces at start with their URLs', () => {
    expect(server.workspaces).toEqual([
      { name: 'alpha', root: roots.a, url: `${server.url}/w/alpha/` },
      { name: 'bravo', root: roots.b, url: `${server.url}/w/bravo/` },
    ])
  })

  it('a workspace token reaches its own workspace only; the others look like names that do not exist', async () => {
    const titles = async (path: string, token: string) => {
      const reply = await fetch(url(path), as(token))
      expect(reply.status, path).toBe(200)
      return ((await reply.json()) as { documents: { title: string }[] }).documents.map((d) => d.title)
    }
    expect(await titles('/w/alpha/documents', TOKENS.a)).toEqual(['alpha.txt'])
    expect(await titles('/w/bravo/documents', TOKENS.b)).toEqual(['bravo.txt'])
    // The admin token reaches every workspace, the default one included.
    expect(await titles('/documents', TOKENS.admin)).toEqual(['main.txt'])
    expect(await titles('/w/alpha/documents', TOKENS.admin)).toEqual(['alpha.txt'])
    expect(await titles('/w/bravo/documents', TOKENS.admin)).toEqual(['bravo.txt'])

    const other = await fetch(url('/w/bravo/documents'), as(TOKENS.a))
    const missing = await fetch(url('/w/charlie/documents'), as(TOKENS.a))
    expect([other.status, missing.status]).toEqual([404, 404])
    const otherMessage = ((await other.json()) as { error: { message: string } }).error.message
    const missingMessage = ((await missing.json()) as { error: { message: string } }).error.message
    expect(otherMessage.replace('bravo', 'X')).toBe(missingMessage.replace('charlie', 'X'))
    expect((await fetch(url('/w/charlie/documents'), as(TOKENS.admin))).status).toBe(404)

    // The default workspace is the admin's: a workspace token is told where its routes are.
    const elsewhere = await fetch(url('/documents'), as(TOKENS.a))
    expect(elsewhere.status).toBe(403)
    const told = ((await elsewhere.json()) as { error: { message: string } }).error.message
    expect(told).toContain('/w/alpha/')
    expect(told).not.toContain('bravo')
  })

  it('without a valid token every workspace path is a 401, whether or not the name exists', async () => {
    for (const path of ['/w/alpha/documents', '/w/charlie/documents', '/documents', '/workspaces']) {
      expect((await fetch(url(path))).status, path).toBe(401)
      const wrong = await fetch(url(path), as('not-a-token'))
      expect(wrong.status, path).toBe(401)
      expect(wrong.headers.get('www-authenticate'), path).toMatch(/^Bearer /)
      expect(((await wrong.json()) as { error: { type: string } }).error.type).toBe('unauthorized')
    }
    expect((await fetch(url('/health'))).status).toBe(200)
    // The web UI's page is public on any workspace address (the same page, naming none).
    const page = await fetch(url('/w/alpha/'))
    expect(page.status).toBe(200)
    expect(await page.text()).toBe(await (await fetch(url('/w/charlie/'))).text())
    const bare = await fetch(url('/w/alpha'), { redirect: 'manual' })
    expect([bare.status, bare.headers.get('location')]).toEqual([308, '/w/alpha/'])
    expect((await fetch(url('/w/alpha/documents'), { headers: { authorization: 'Basic x' } })).status).toBe(400)
  })

  it('GET /workspaces lists what the token reaches, and nothing else', async () => {
    const listed = async (token: string) => (await (await fetch(url('/workspaces'), as(token))).json()) as unknown
    expect(await listed(TOKENS.a)).toEqual({ default: false, workspaces: [{ name: 'alpha', path: '/w/alpha/' }] })
    expect(JSON.stringify(await listed(TOKENS.b))).not.toContain('alpha')
    expect(await listed(TOKENS.admin)).toEqual({
      default: true,
      workspaces: [
        { name: 'alpha', path: '/w/alpha/' },
        { name: 'bravo', path: '/w/bravo/' },
      ],
    })
  })

  it('uploads to a workspace land in its own input folder', async () => {
    const form = new FormData()
    form.append('file', new Blob(['Ada Quill trimmed the lamp wick at dusk.\n']), 'lamp.txt')
    const reply = await fetch(url('/w/bravo/documents?update=false'), as(TOKENS.b, { method: 'POST', body: form }))
    expect(reply.status).toBe(201)
    expect(await readFile(join(roots.b, 'input', 'lamp.txt'), 'utf8')).toContain('lamp wick')
  })

  it("a job held on a slow model in one workspace does not hold up the other's queries", async () => {
    const events: string[] = []
    // bravo's first index (offline), followed on its own stream path.
    const built = await fetch(url('/w/bravo/index'), as(TOKENS.b, json({ mode: 'index' })))
    expect(built.status).toBe(202)
    const { stream } = (await built.json()) as { stream: string }
    expect(stream).toMatch(/^\/w\/bravo\/index\/stream\?job=/)
    expect(JSON.parse((await lastEvent(url(stream), TOKENS.b)).data)).toEqual({ stage: 'done' })

    const started = await fetch(url('/w/alpha/index'), as(TOKENS.a, json({ mode: 'index' })))
    expect(started.status).toBe(202)
    const alphaStream = ((await started.json()) as { stream: string }).stream
    await gate.held
    events.push('alpha held on its model')
    // alpha's job is running: a second one there is refused, while bravo's queries and jobs go on.
    expect((await fetch(url('/w/alpha/index'), as(TOKENS.a, json({})))).status).toBe(409)
    const answer = await fetch(
      url('/w/bravo/query'),
      as(TOKENS.b, json({ question: 'Who kept the lighthouse?', method: 'basic' })),
    )
    expect(answer.status).toBe(200)
    expect(((await answer.json()) as { response: string }).response).toContain('Ada Quill')
    expect(gate.waiting()).toBeGreaterThan(0)
    events.push('bravo answered')
    gate.release()
    expect(JSON.parse((await lastEvent(url(alphaStream), TOKENS.a)).data)).toEqual({ stage: 'done' })
    events.push('alpha done')
    expect(events).toEqual(['alpha held on its model', 'bravo answered', 'alpha done'])
    // Each index is its own: alpha's answers come from alpha's documents.
    const alpha = await fetch(
      url('/w/alpha/query'),
      as(TOKENS.a, json({ question: 'Who sailed the Windward?', method: 'basic' })),
    )
    expect(alpha.status).toBe(200)
  }, 120_000)

  it('MCP per workspace: /w/{name}/mcp answers from that workspace', async () => {
    const client = new Client({ name: 'graphrag-test', version: '1.0.0' })
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url('/w/bravo/mcp')), {
        requestInit: { headers: { authorization: `Bearer ${TOKENS.b}` } },
      }),
    )
    try {
      const result = await client.callTool({ name: 'list_documents', arguments: {} })
      const text = (result.content as { text: string }[])[0]!.text
      const titles = (JSON.parse(text) as { documents: { title: string }[] }).documents.map((d) => d.title).sort()
      expect(titles).toEqual(['bravo.txt', 'lamp.txt'])
    } finally {
      await client.close()
    }
    const refused = new Client({ name: 'graphrag-test', version: '1.0.0' })
    await expect(
      refused.connect(
        new StreamableHTTPClientTransport(new URL(url('/w/alpha/mcp')), {
          requestInit: { headers: { authorization: `Bearer ${TOKENS.b}` } },
        }),
      ),
    ).rejects.toThrow(/no workspace \\"alpha\\"/)
  })
})

async function lastEvent(streamUrl: string, token: string) {
  let last: { event?: string; data: string } | undefined
  for await (const message of readSse(await fetch(streamUrl, as(token)))) last = message
  return last!
}
