/**
 * Seed design 002's chunk-graph behaviours end to end (fake model server): the edge workers' own
 * concurrency (chunk_graph.workers, 3) instead of concurrent_requests (25), the document scope of
 * cross-document edges, and graph search's keyword seeding and document filters. The first index and
 * the graph queries run in process (what they test is the pipeline and the search, and a CLI start
 * costs seconds on a loaded machine); the re-index, refresh-relations and the refused setting go
 * through the CLI over dist/.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { duckQuery } from '../support/duckdb.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { runQueryInProcess } from '../support/query-command.js'
import { testdir } from '../support/testdir.js'

// Every sentence names its topic twice, so no chunk of one document repeats one of another (equal
// texts would share a text unit id).
const sentences = (topic: string, extra = '') => [
  `The ${topic} guild keeps its ledgers in the old tower by the river gate of the ${topic}.`,
  `Every spring the ${topic} guild elects a warden who signs the ${topic} ledgers.${extra}`,
  `The warden of the ${topic} guild also settles disputes between ${topic} members.`,
  `Members of the ${topic} guild pay their dues at midsummer in ${topic} silver.`,
  `Old ${topic} masters teach the apprentices of the ${topic} guild in winter.`,
]
/** Three documents of 4 or more chunks each at chunking.size 20; only beta names Zanzibar. */
const DOCS = {
  'input/alpha.txt': sentences('weavers').join(' '),
  'input/beta.txt': sentences('potters', ' Their clay comes from Zanzibar.').join(' '),
  'input/gamma.txt': sentences('masons').join(' '),
}

const BASE_SETTINGS = (url: string) =>
  [
    fakeModelSettingsYaml(url),
    'chunking:\n  size: 20\n  overlap: 0',
    'extract_graph:\n  max_gleanings: 0',
    'vector_store:\n  vector_size: 32',
    'chunk_graph:\n  cross_document: true\n  cross_document_threshold: -1\n  cross_document_top_k: 8\n  cross_document_documents: [alpha.txt, beta.txt]',
  ].join('\n')

/** Most requests in flight at once. */
function peakInFlight(requests: FakeLlm['requests']): number {
  const events = requests
    .flatMap((r) => [[r.startedAt, 1] as const, [r.endedAt, -1] as const])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
  let now = 0
  let peak = 0
  for (const [, d] of events) peak = Math.max(peak, (now += d))
  return peak
}

interface Source {
  id: number
  hop: number
}

describe('chunk graph: workers, document scope, keyword seeds and filters (CLI, fake model)', () => {
  let fake: FakeLlm
  let root: string
  const out = (name: string) => join(root, 'output', name)
  const unitsOf = async (title: string) =>
    (
      await duckQuery(
        `SELECT u.human_readable_id::INTEGER AS id FROM read_parquet('${out('text_units.parquet')}') u JOIN read_parquet('${out('documents.parquet')}') d ON d.id = u.document_id WHERE d.title = '${title}' ORDER BY id`,
      )
    ).map((r) => r.id as number)
  const ask = async (question: string, graphSearch: string) => {
    await writeFile(join(root, 'settings.yaml'), `${BASE_SETTINGS(fake.baseUrl)}\ngraph_search:\n${graphSearch}`)
    const run = await runQueryInProcess(root, question, 'graph')
    return (JSON.parse(run.stdout) as { context: { sources: Source[] } }).context.sources
  }

  beforeAll(async () => {
    // Typed-edge calls are slow, so parallel ones overlap and the peak shows the worker limit.
    fake = await startFakeLlm({
      embeddingDimension: 32,
      latency: { extraMs: ({ kind }) => (kind === 'chunk_graph' ? 150 : 0) },
    })
    root = await testdir({ 'settings.yaml': `${BASE_SETTINGS(fake.baseUrl)}\n`, ...DOCS })
    // Validation on, as `graphrag index` without --skip-validation: the endpoint check is one of the calls.
    await runIndex({ root })
  }, 180_000)

  afterAll(async () => {
    await fake?.close()
  })

  it('sends cross-document batches only between the scoped documents, 3 at a time although concurrent_requests is 25', async () => {
    const alpha = await unitsOf('alpha.txt')
    const beta = await unitsOf('beta.txt')
    const gamma = await unitsOf('gamma.txt')
    expect(alpha.length).toBeGreaterThanOrEqual(4)
    expect(gamma.length).toBeGreaterThan(0)
    const calls = fake.requests.filter((r) => r.kind === 'chunk_graph')
    // Each alpha unit goes with the beta units it is not yet paired with: one batch per alpha unit.
    expect(calls.length).toBe(alpha.length)
    for (const call of calls) expect(JSON.stringify(call.body)).not.toContain('masons')
    expect(peakInFlight(calls)).toBe(3)
    const edges = await duckQuery(
      `SELECT s.document_id AS a, t.document_id AS b FROM read_parquet('${out('chunk_edges.parquet')}') e JOIN read_parquet('${out('text_units.parquet')}') s ON s.id = e.source_id JOIN read_parquet('${out('text_units.parquet')}') t ON t.id = e.target_id WHERE e.origin = 'cross_document'`,
    )
    expect(edges.length).toBeGreaterThan(0)
    expect(beta.length).toBeGreaterThan(0)
  })

  it('seeds from keywords with seed_keyword_weight, from vectors without', async () => {
    const beta = await unitsOf('beta.txt')
    const [zanzibar] = await duckQuery(
      `SELECT human_readable_id::INTEGER AS id FROM read_parquet('${out('text_units.parquet')}') WHERE text LIKE '%Zanzibar%'`,
    )
    expect(beta).toContain(zanzibar!.id)
    const byVector = await ask('Zanzibar', '  seed_top_k: 1\n  max_hops: 0\n')
    const byKeyword = await ask('Zanzibar', '  seed_top_k: 1\n  max_hops: 0\n  seed_keyword_weight: 1\n')
    expect(byKeyword.map((s) => s.id)).toEqual([zanzibar!.id])
    expect(byVector.map((s) => s.id)).not.toEqual([zanzibar!.id])
  })

  it('keeps seeds and walk inside the documents graph_search.filters match', async () => {
    const alpha = await unitsOf('alpha.txt')
    const [first] = await duckQuery(
      `SELECT text FROM read_parquet('${out('text_units.parquet')}') WHERE human_readable_id = ${(await unitsOf('beta.txt'))[0]}`,
    )
    const open = await ask(String(first!.text), '  seed_top_k: 3\n  bidirectional: true\n')
    expect(open.some((s) => !alpha.includes(s.id))).toBe(true)
    const filtered = await ask(
      String(first!.text),
      '  seed_top_k: 3\n  bidirectional: true\n  filters:\n    title: alph*\n',
    )
    expect(filtered.length).toBeGreaterThan(0)
    for (const s of filtered) expect(alpha).toContain(s.id)
  })

  it('re-runs only create_chunk_graph when a chunk_graph setting changes (relations-only refresh)', async () => {
    await writeFile(
      join(root, 'settings.yaml'),
      `${BASE_SETTINGS(fake.baseUrl).replace('[alpha.txt, beta.txt]', '[alpha.txt, gamma.txt]')}\n`,
    )
    const before = fake.requests.length
    const run = await runCli(['index', '--root', root])
    expect(run.code, run.stderr).toBe(0)
    const made = fake.requests.slice(before)
    // No extraction, summary or report call: only the endpoint check, the edges and the question vectors.
    const others = made.filter((r) => !['chunk_graph', 'embedding', 'preflight'].includes(r.kind))
    expect(others.map((r) => r.kind)).toEqual([])
    const calls = made.filter((r) => r.kind === 'chunk_graph')
    expect(calls.length).toBeGreaterThan(0)
    for (const call of calls) expect(JSON.stringify(call.body)).not.toContain('potters')
    expect(calls.some((call) => JSON.stringify(call.body).includes('masons'))).toBe(true)
    const stats = JSON.parse(await readFile(out('stats.json'), 'utf8')) as {
      workflows: Record<string, { skipped?: boolean }>
    }
    const ran = Object.entries(stats.workflows)
      .filter(([, w]) => w.skipped !== true)
      .map(([name]) => name)
    expect(ran).toEqual(['create_chunk_graph'])
  })

  it('graphrag refresh-relations --no-cache asks the model for the edges again, and only for them', async () => {
    const before = fake.requests.length
    const run = await runCli(['refresh-relations', '--root', root, '--no-cache', '--skip-validation'])
    expect(run.code, run.stderr).toBe(0)
    const made = fake.requests.slice(before)
    expect(made.filter((r) => r.kind !== 'chunk_graph').map((r) => r.kind)).toEqual([])
    expect(made.length).toBe((await unitsOf('alpha.txt')).length)
    const stats = JSON.parse(await readFile(out('stats.json'), 'utf8')) as {
      workflows: Record<string, { skipped?: boolean }>
    }
    const ran = Object.entries(stats.workflows)
      .filter(([, w]) => w.skipped !== true)
      .map(([name]) => name)
    expect(ran).toEqual(['create_chunk_graph'])
    // Without an index there is nothing to refresh: it says so instead of indexing everything.
    const empty = await testdir({ 'settings.yaml': `${BASE_SETTINGS(fake.baseUrl)}\n`, ...DOCS })
    const none = await runCliInProcess(['refresh-relations', '--root', empty, '--skip-validation'])
    expect(none.code).not.toBe(0)
    expect(none.stderr).toContain('run `graphrag index` before refreshing create_chunk_graph')
  })

  it('refuses a cross_document_documents entry naming no document', async () => {
    await writeFile(
      join(root, 'settings.yaml'),
      `${BASE_SETTINGS(fake.baseUrl).replace('[alpha.txt, beta.txt]', '[alpha.txt, delta.txt]')}\n`,
    )
    const run = await runCliInProcess(['index', '--root', root])
    expect(run.code).not.toBe(0)
    expect(run.stderr).toContain('chunk_graph.cross_document_documents: no document has the id or title "delta.txt"')
  })
})
