/**
 * Every input file with its status (issue 43 item 2), over GET /documents and MCP list_documents:
 * a file without text (a scanned PDF), an encrypted PDF, an empty file and a corrupt file are
 * listed as skipped with the reader's message; filter by status, sort, page; bad parameters get one
 * clear 400. (`failed`, an I/O error while reading, cannot be provoked here: the tests run as root.)
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DocumentEntry } from '../../src/server/documents.js'
import { startServer, type RunningServer } from '../../src/server/start.js'
import { makePdf } from '../support/documents.js'
import { testdir } from '../support/testdir.js'

type Listing = {
  documents: DocumentEntry[]
  total: number
  offset: number
  limit: number | null
  counts: Record<string, number>
}

describe('the document listing: every file with its status, filtered, sorted and paged', () => {
  let root: string
  let server: RunningServer
  beforeAll(async () => {
    root = await testdir({
      'settings.yaml': 'input:\n  type: auto\n',
      'input/a.txt': 'Alpha is the first story.\n',
      'input/c.txt': 'Gamma is the third story, and the longest of the three stories here.\n',
      'input/b.md': '# Beta\n\nBeta is second.\n',
      'input/empty.txt': '',
    })
    await writeFile(join(root, 'input', 'scan.pdf'), await makePdf({ pages: [[]] }))
    await writeFile(join(root, 'input', 'locked.pdf'), await makePdf({ pages: [['Secret']], userPassword: 'pw' }))
    // A corrupt file is skipped by the indexer with its reader's message.
    await writeFile(join(root, 'input', 'broken.docx'), 'PK\u0003\u0004 not a zip')
    server = await startServer({ root, port: 0, env: { GRAPHRAG_SERVER_TOKEN: undefined } })
  })
  afterAll(() => server?.close())

  const get = async (query = '') => {
    const response = await fetch(`${server.url}/documents${query}`)
    return { status: response.status, body: (await response.json()) as Listing & { error?: { message: string } } }
  }

  it('lists files that give no document as skipped, with their reasons, beside the readable ones', async () => {
    const { body } = await get()
    const byTitle = Object.fromEntries(body.documents.map((d) => [d.title, d]))
    expect(Object.keys(byTitle).sort()).toEqual([
      'a.txt',
      'b.md',
      'broken.docx',
      'c.txt',
      'empty.txt',
      'locked.pdf',
      'scan.pdf',
    ])
    expect(byTitle['a.txt']).toMatchObject({ status: 'new', file: 'a.txt' })
    expect(byTitle['a.txt']!.reason).toBeUndefined()
    expect(byTitle['locked.pdf']).toMatchObject({ status: 'skipped', id: 'locked.pdf', file: 'locked.pdf' })
    expect(byTitle['locked.pdf']!.reason).toMatch(/password|encrypt/i)
    expect(byTitle['scan.pdf']).toMatchObject({ status: 'skipped' })
    expect(byTitle['scan.pdf']!.reason).toMatch(/image|scanned|text/i)
    expect(byTitle['empty.txt']).toMatchObject({ status: 'skipped' })
    expect(byTitle['broken.docx']).toMatchObject({ status: 'skipped' })
    expect(byTitle['broken.docx']!.reason).toMatch(/not a readable \.docx file/)
    expect(body.counts).toEqual({ indexed: 0, new: 3, edited: 0, deleted: 0, skipped: 4, failed: 0 })
    expect(body).toMatchObject({ total: 7, offset: 0, limit: null })
  })

  it('filters by status, sorts either way, pages with limit and offset', async () => {
    const skipped = (await get('?status=skipped,failed')).body
    expect(skipped.documents.map((d) => d.title)).toEqual(['broken.docx', 'empty.txt', 'locked.pdf', 'scan.pdf'])
    expect(skipped.total).toBe(4)
    expect(skipped.counts.new).toBe(3)
    const bySize = (await get('?status=new&sort=-size')).body.documents.map((d) => d.title)
    expect(bySize).toEqual(['c.txt', 'a.txt', 'b.md'])
    const page = (await get('?sort=title&limit=2&offset=2')).body
    expect(page.documents.map((d) => d.title)).toEqual(['broken.docx', 'c.txt'])
    expect(page).toMatchObject({ total: 7, offset: 2, limit: 2 })
    for (const [query, message] of [
      ['?status=lost', /status: "lost" is not one of indexed, new/],
      ['?sort=colour', /sort: "colour" is not one of/],
      ['?limit=0', /limit: expected a whole number from 1 to 1000, got "0"/],
      ['?offset=-1', /offset: expected a whole number/],
    ] as const) {
      const bad = await get(query)
      expect(bad.status, query).toBe(400)
      expect(bad.body.error!.message).toMatch(message)
    }
  })

  it('MCP list_documents takes the same filter, sort and paging', async () => {
    const client = new Client({ name: 'graphrag-test', version: '1.0.0' })
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)))
    try {
      const result = await client.callTool({
        name: 'list_documents',
        arguments: { status: ['skipped'], sort: '-title', limit: 2 },
      })
      const listing = JSON.parse((result.content as Array<{ text: string }>)[0]!.text) as Listing
      expect(listing.documents.map((d) => [d.title, d.status])).toEqual([
        ['scan.pdf', 'skipped'],
        ['locked.pdf', 'skipped'],
      ])
      expect(listing.total).toBe(4)
      expect(listing.documents[0]!.reason).toBeDefined()
    } finally {
      await client.close()
    }
  })
})
