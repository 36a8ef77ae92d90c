/**
 * MCP (issue 31 item 4): the official SDK client lists the tools and calls each, over stdio
 * (`graphrag mcp`, the built CLI) and over streamable HTTP at /mcp on `graphrag serve`, with and
 * without the token.
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { DOCUMENTS, TEXT_UNITS } from '../../src/model/index.js'
import { readableIndexDir } from '../../src/storage/generations.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const TOOLS = [
  'curate_entity',
  'curate_relationship',
  'get_community_report',
  'get_entity',
  'get_source',
  'list_documents',
  'query',
  'search_entities',
]

type Content = Array<{ type: string; text: string }>

/** Lists the tools and resources and calls every tool once, as an agent would. */
async function exercise(client: Client): Promise<void> {
  const { tools } = await client.listTools()
  expect(tools.map((t) => t.name).sort()).toEqual(TOOLS)
  const query = tools.find((t) => t.name === 'query')!
  expect(query.description).toMatch(/local: .*global: .*drift: .*basic: .*graph: .*hybrid: .*lazy: /s)
  expect(Object.keys(query.inputSchema.properties ?? {}).sort()).toEqual([
    'community_level',
    'method',
    'question',
    'response_type',
  ])
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args })
    return { isError: result.isError === true, text: (result.content as Content)[0]!.text }
  }
  const answer = await call('query', { question: 'Who salvaged the ship?', method: 'basic' })
  expect(answer.isError, answer.text).toBe(false)
  expect(answer.text.length).toBeGreaterThan(0)
  const bad = await client.callTool({ name: 'query', arguments: { question: 'q', community_level: 1.5 } })
  expect(bad.isError).toBe(true)
  const found = await call('search_entities', { text: 'kittiwake', limit: 5 })
  const entities = (JSON.parse(found.text) as { entities: Array<{ name: string }> }).entities
  expect(entities.length).toBeGreaterThan(0)
  const entity = JSON.parse((await call('get_entity', { name: entities[0]!.name.toLowerCase() })).text) as {
    name: string
    communities: Array<{ community: number }>
  }
  expect(entity.name).toBe(entities[0]!.name)
  expect((await call('get_entity', { name: 'nobody at all' })).isError).toBe(true)
  // curate_entity writes a rule with the index's title (matched after normalisation); an unknown name is an error.
  const curated = await call('curate_entity', {
    action: 'set_type',
    name: `the ${entity.name.toLowerCase()}`,
    value: 'THING',
  })
  expect(curated.isError, curated.text).toBe(false)
  expect(JSON.parse(curated.text).rule).toEqual({ action: 'set_type', entity: entity.name, type: 'THING' })
  expect((await call('curate_entity', { action: 'delete', name: 'nobody at all' })).isError).toBe(true)
  expect((await call('curate_entity', { action: 'merge', name: entity.name })).text).toBe('merge needs a value')
  const { resources } = await client.listResources()
  expect(resources.length).toBeGreaterThan(0)
  expect(resources[0]!.uri).toMatch(/^graphrag:\/\/reports\/\d+$/)
  const community = Number(resources[0]!.uri.split('/').at(-1))
  const report = await call('get_community_report', { community })
  expect(report.isError).toBe(false)
  expect(report.text).toMatch(/^# /)
  const read = await client.readResource({ uri: resources[0]!.uri })
  expect((read.contents[0] as { text: string }).text).toBe(report.text)
  const docs = JSON.parse((await call('list_documents', {})).text) as { documents: Array<{ status: string }> }
  expect(docs.documents.map((d) => d.status)).toEqual(['indexed', 'indexed'])
}

interface Structured {
  method: string
  answer: string
  citations: Array<{ cited: string; kind: string; id: string }>
  sources: Array<{ kind: string; id: string; title: string; cited_as: string[] }>
}

/** Asks with three methods (tables cited by number, hybrid's [S#] labels) and reads every citation back. */
async function resolvesEveryCitation(client: Client, root: string): Promise<void> {
  const store = new ParquetTableStore(await readableIndexDir(join(root, 'output')))
  const units = await store.read(TEXT_UNITS)
  const docs = new Map((await store.read(DOCUMENTS)).map((d) => [d.id, d.title]))
  for (const method of ['basic', 'local', 'hybrid']) {
    const result = await client.callTool({ name: 'query', arguments: { question: 'Who salvaged the ship?', method } })
    const structured = result.structuredContent as unknown as Structured
    expect(structured.answer).toBe((result.content as Content)[0]!.text)
    expect(structured.citations.length, `${method}: ${structured.answer}`).toBeGreaterThan(0)
    expect(structured.citations.map((c) => c.cited).every((c) => structured.answer.includes(c.split(' (')[0]!))).toBe(
      true,
    )
    for (const citation of structured.citations) {
      const got = await client.callTool({ name: 'get_source', arguments: { id: citation.id, kind: citation.kind } })
      expect(got.isError, `${method} ${citation.cited}`).not.toBe(true)
      const source = JSON.parse((got.content as Content)[0]!.text) as { kind: string; title: string; text: string }
      expect(source.kind).toBe(citation.kind)
      expect(source.title.length).toBeGreaterThan(0)
      expect(source.text.length, `${method} ${citation.cited}`).toBeGreaterThan(0)
      const listed = structured.sources.find((s) => s.cited_as.includes(citation.cited))
      expect(listed?.title).toBe(source.title)
    }
    if (method === 'hybrid') expect(structured.citations.map((c) => c.cited)).toContain('S1')
  }
  // A bare cited number (as in [Data: Sources (n)]) is a text unit: its text, titled by its document.
  const unit = units[1]!
  const bare = await client.callTool({ name: 'get_source', arguments: { id: `Sources (${unit.human_readable_id})` } })
  const read = JSON.parse((bare.content as Content)[0]!.text) as { id: string; title: string; text: string }
  expect(read).toMatchObject({ id: unit.id, text: unit.text, title: docs.get(unit.document_id) })
  const label = await client.callTool({ name: 'get_source', arguments: { id: 'S1' } })
  expect(label.isError).toBe(true)
  expect((label.content as Content)[0]!.text).toMatch(/citations/)
}

async function connected(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'graphrag-test', version: '1.0.0' })
  await client.connect(transport)
  return client
}

describe('graphrag MCP server', () => {
  let fake: FakeLlm
  let root: string

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8 })
    const story = async (name: string) =>
      (await readFile(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', name), 'utf8')).slice(0, 2500)
    root = await testdir({
      'settings.yaml': [
        fakeModelSettingsYaml(fake.baseUrl),
        'method: fast',
        'vector_store:\n  vector_size: 8',
        '',
      ].join('\n'),
      'input/01-the-harbour.txt': await story('01-the-harbour.txt'),
      'input/03-the-salvage.txt': await story('03-the-salvage.txt'),
    })
    await runIndex({ root, env: {}, skipValidation: true })
  }, 120_000)
  afterAll(() => fake?.close())

  const stdio = () =>
    new StdioClientTransport({
      command: process.execPath,
      args: [join(PROJECT_ROOT, 'bin', 'graphrag.js'), 'mcp', '--root', root],
      stderr: 'pipe',
    })

  it('over stdio (graphrag mcp, the built CLI): lists the tools and lists the documents', async () => {
    const client = await connected(stdio())
    try {
      expect((await client.listTools()).tools.map((t) => t.name).sort()).toEqual(TOOLS)
      const result = await client.callTool({ name: 'list_documents', arguments: {} })
      const docs = JSON.parse((result.content as Content)[0]!.text) as { documents: Array<{ status: string }> }
      expect(docs.documents.map((d) => d.status)).toEqual(['indexed', 'indexed'])
    } finally {
      await client.close()
    }
  }, 60_000)

  // Every tool over stdio is the same server code as over HTTP, in a cold CLI process (slow on a shared machine).
  it.skipIf(!process.env.GRAPHRAG_SLOW_TESTS)(
    'over stdio: every tool and the resources',
    async () => {
      const client = await connected(stdio())
      try {
        await exercise(client)
      } finally {
        await client.close()
      }
    },
    60_000,
  )

  describe('over streamable HTTP at /mcp', () => {
    let open: RunningServer
    let guarded: RunningServer
    beforeAll(async () => {
      open = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
      guarded = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: 'mcp-token-1' } })
    })
    afterAll(async () => {
      await open?.close()
      await guarded?.close()
    })

    it('without a token on loopback', async () => {
      const client = await connected(new StreamableHTTPClientTransport(new URL(`${open.url}/mcp`)))
      try {
        await exercise(client)
      } finally {
        await client.close()
      }
      // Stateless: no server-initiated stream and no session to end.
      const get = await fetch(`${open.url}/mcp`, { headers: { accept: 'text/event-stream' } })
      expect(get.status).toBe(405)
      // A page cannot drive it: JSON only, and a foreign Origin is refused.
      const form = await fetch(`${open.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: '{}',
      })
      expect(form.status).toBe(415)
    }, 60_000)

    it('every citation of a query answer resolves through get_source, with its title and text', async () => {
      const client = await connected(new StreamableHTTPClientTransport(new URL(`${open.url}/mcp`)))
      try {
        await resolvesEveryCitation(client, root)
        // total_matches counts every match, not only those within the limit.
        const found = await client.callTool({ name: 'search_entities', arguments: { text: 'a', limit: 1 } })
        const page = JSON.parse((found.content as Content)[0]!.text) as { entities: unknown[]; total_matches: number }
        expect(page.entities).toHaveLength(1)
        expect(page.total_matches).toBeGreaterThan(1)
      } finally {
        await client.close()
      }
    }, 60_000)

    it('with the server token, and not without it', async () => {
      await expect(connected(new StreamableHTTPClientTransport(new URL(`${guarded.url}/mcp`)))).rejects.toThrow()
      const transport = new StreamableHTTPClientTransport(new URL(`${guarded.url}/mcp`), {
        requestInit: { headers: { authorization: 'Bearer mcp-token-1' } },
      })
      const client = await connected(transport)
      try {
        await exercise(client)
      } finally {
        await client.close()
      }
    }, 60_000)
  })
})
