/**
 * The chunk graph end to end through the CLI and the fake OpenAI-protocol server: typed LLM edges
 * with scripted invalid ones and one failing batch, chunk_edges.parquet read by DuckDB, the dry-run
 * estimate, resume with the cache, and `query --method graph` with its graph context and degrades.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { CHUNK_EDGES } from '../../src/model/index.js'
import { runCli, type CliResult } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { duckDescribe, duckQuery } from '../support/duckdb.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../support/fake-llm/index.js'
import { chunkGraphUnits } from '../support/fake-llm/responders.js'
import { runQueryInProcess } from '../support/query-command.js'
import { testdir } from '../support/testdir.js'

const DUCKDB_TYPE = { string: 'VARCHAR', double: 'DOUBLE' } as Record<string, string>

const SENTENCES = [
  'Create an account at the Aldwick portal before anything else.',
  'The account needs a verified email address and a strong password.',
  'Once the account exists, generate an API key in the settings page.',
  'Keep the API key secret: anyone holding it can read your data.',
  'With the key in place, configure the client library with the endpoint.',
  'The client library retries failed requests three times by default.',
]
/** Two documents of 77 tokens (o200k): 3 chunks each at chunking.size 30. */
const DOCS = { 'input/setup.txt': SENTENCES.join(' '), 'input/usage.txt': [...SENTENCES].reverse().join(' ') }

/**
 * Each batch [l0, l1, ...]: l_i elaborates l_{i-1} (weight 0.9 for the first pair of the batch, 0.5
 * after), plus four invalid edges (self-edge, unknown id, unknown relation, weight above 1). The
 * batch starting at unit 0 gets prose instead of JSON, so it fails after the retries.
 */
const SCRIPTED: Responder = ({ kind, messages }) => {
  if (kind !== 'chunk_graph') return undefined
  const l = chunkGraphUnits(messages)
  if (l[0] === '0') return 'I would rather not answer in JSON today.'
  const valid = l.slice(1).map((unit, i) => ({
    source: unit,
    target: l[i],
    relation: 'elaborates',
    weight: i === 0 ? 0.9 : 0.5,
    description: `unit ${unit} builds on unit ${l[i]}`,
  }))
  const invalid = [
    { source: l[0], target: l[0], relation: 'references', weight: 0.5, description: 'self' },
    { source: l[0], target: '99', relation: 'references', weight: 0.5, description: 'unknown id' },
    { source: l[1], target: l[0], relation: 'causes', weight: 0.5, description: 'unknown relation' },
    { source: l[1], target: l[0], relation: 'depends_on', weight: 1.5, description: 'weight above 1' },
  ]
  return JSON.stringify({ edges: [...valid, ...invalid] })
}

interface StatsEntry {
  status: string
  counters: Record<string, number>
  failures: Array<{ item: string; reason: string }>
}

describe('chunk graph with LLM edges (CLI, fake model server)', () => {
  let fake: FakeLlm
  let root: string
  let dryRun: CliResult
  let first: CliResult
  const out = (name: string) => join(root, 'output', name)
  const chunkGraphRequests = () => fake.requests.filter((r) => r.kind === 'chunk_graph').length

  beforeAll(async () => {
    fake = await startFakeLlm({ responders: [SCRIPTED], embeddingDimension: 64 })
    const settings = [
      fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 1 }),
      'chunking:\n  size: 30\n  overlap: 0',
      'extract_graph:\n  max_gleanings: 0',
      'vector_store:\n  vector_size: 64',
      // Only typed edges, so every edge of the table comes from the scripted replies.
      'chunk_graph:\n  llm_edges: true\n  sequence_edges: false\n  shared_entity_edges: false\n  batch_size: 2\n  batch_overlap: 1',
      'graph_search:\n  seed_top_k: 1',
      '',
    ].join('\n')
    root = await testdir({ 'settings.yaml': settings, ...DOCS })
    dryRun = await runCli(['index', '--root', root, '--dry-run'])
    first = await runCli(['index', '--root', root])
  }, 120_000)

  afterAll(async () => {
    await fake?.close()
  })

  it('writes chunk_edges.parquet with our schema, readable by DuckDB', async () => {
    expect(first.code, first.stderr).toBe(0)
    const [{ units }] = await duckQuery(
      `SELECT count(*)::INTEGER AS units FROM read_parquet('${out('text_units.parquet')}')`,
    )
    // The script below assumes 6 units, 3 per document: batches [0-1] (fails), [1-2], [3-4], [4-5] (never across documents).
    expect(units).toBe(6)
    expect(await duckDescribe(out('chunk_edges.parquet'))).toEqual(
      CHUNK_EDGES.columns.map((c) => `${c.name}:${DUCKDB_TYPE[c.kind]}`),
    )
  })

  it('keeps the valid edges, nothing from the failed batch and nothing across documents', async () => {
    const rows = await duckQuery(
      `SELECT s.human_readable_id::INTEGER AS source, t.human_readable_id::INTEGER AS target, e.relation, e.weight, e.description, e.origin
       FROM read_parquet('${out('chunk_edges.parquet')}') e
       JOIN read_parquet('${out('text_units.parquet')}') s ON s.id = e.source_id JOIN read_parquet('${out('text_units.parquet')}') t ON t.id = e.target_id
       ORDER BY source`,
    )
    // 1→0 would come from [0-1], which failed; 3→2 would join the two documents.
    expect(rows.map((r) => [r.source, r.target, r.weight])).toEqual([
      [2, 1, 0.9],
      [4, 3, 0.9],
      [5, 4, 0.9],
    ])
    expect(rows.every((r) => r.relation === 'elaborates' && r.origin === 'llm')).toBe(true)
    expect(rows[1]!.description).toBe('unit 4 builds on unit 3')
  })

  it('counts the dropped edges by reason and reports the failed batch in stats.json, without failing the index', async () => {
    const stats = JSON.parse(await readFile(out('stats.json'), 'utf8')) as { workflows: Record<string, StatsEntry> }
    const entry = stats.workflows.create_chunk_graph!
    expect(entry.status).toBe('succeeded_with_failures')
    expect(entry.counters).toMatchObject({
      llm_batches: 4,
      batches_failed: 1,
      invalid_edges: 12,
      invalid_edges_self_edge: 3,
      invalid_edges_unknown_id: 3,
      invalid_edges_unknown_relation: 3,
      invalid_edges_bad_weight: 3,
    })
    expect(entry.failures).toEqual([{ item: 'units 0,1', reason: expect.stringContaining('JSON') }])
    expect(first.stderr).toContain('1 of 4 typed-edge batches failed')
    expect(first.stderr).toMatch(/chunk graph batches 4\/4/)
  })

  it('estimates the four typed-edge calls in --dry-run', async () => {
    expect(dryRun.code, dryRun.stderr).toBe(0)
    expect(dryRun.stdout).toMatch(/create_chunk_graph\s+4 calls/)
    const stats = JSON.parse(await readFile(out('stats.json'), 'utf8')) as {
      estimate: Array<{ workflow: string; estimated: { calls: number } }>
    }
    expect(stats.estimate.find((r) => r.workflow === 'create_chunk_graph')?.estimated.calls).toBe(4)
  })

  it('query --method graph --json returns a unit reachable only through an edge, with its graph context', async () => {
    // The fake embedder gives identical texts identical vectors: asking with unit 5's text seeds unit 5 alone.
    const [{ text }] = await duckQuery(
      `SELECT text FROM read_parquet('${out('text_units.parquet')}') WHERE human_readable_id = 5`,
    )
    const run = await runCli(['query', String(text), '--root', root, '--method', 'graph', '--json'])
    expect(run.code, run.stderr).toBe(0)
    const result = JSON.parse(run.stdout) as {
      method: string
      response: string
      context: { sources: Array<Record<string, string | number>> }
    }
    expect(result.method).toBe('graph')
    const sources = result.context.sources
    expect(sources.map((s) => [s.id, s.hop])).toEqual([
      [5, 0],
      [4, 1],
      [3, 2],
    ])
    expect(sources[0]!.score as number).toBeCloseTo(1, 5)
    // 0.3 × 0.9 × 0.7 and 0.3 × 0.9 × 0.5.
    expect(sources[1]).toMatchObject({
      reached_from: 5,
      relation: 'elaborates',
      link: 'unit 5 builds on unit 4',
      direction: 'outgoing',
    })
    expect(sources[1]!.score as number).toBeCloseTo(0.189, 9)
    expect(sources[2]).toMatchObject({ reached_from: 4, relation: 'elaborates', link: 'unit 4 builds on unit 3' })
    expect(sources[2]!.score as number).toBeCloseTo(0.135, 9)
    expect(result.response).toContain('↳ related: "unit 5 builds on unit 4" (elaborates), from Source 5')
  })

  it('query --method graph prints the answer followed by how the linked sources were reached, also streaming', async () => {
    const [{ text }] = await duckQuery(
      `SELECT text FROM read_parquet('${out('text_units.parquet')}') WHERE human_readable_id = 5`,
    )
    // In process (the command the CLI runs; the --json case above goes through the CLI).
    for (const streaming of [false, true]) {
      const run = await runQueryInProcess(root, String(text), 'graph', { json: false, streaming })
      expect(run.stdout).toContain('[Data: Sources (')
      expect(run.stdout).toContain(
        'Sources reached through the chunk graph:\n- Source 4 ↳ related: "unit 5 builds on unit 4" (elaborates), from Source 5',
      )
    }
    const graphAnswers = fake.requests.filter((r) => r.kind === 'basic_search')
    expect(JSON.stringify(graphAnswers.at(-1)?.body)).toContain('unit 5 builds on unit 4')
  })

  it('query --method graph --history shows the conversation to the model and searches with the earlier question too', async () => {
    const history = join(root, 'history.json')
    await writeFile(
      history,
      JSON.stringify([
        { role: 'user', content: 'How do I get an API key?' },
        { role: 'assistant', content: 'From the settings page.' },
      ]),
    )
    await runQueryInProcess(root, 'And then?', 'graph', { json: false, history })
    const last = fake.requests.filter((r) => r.kind === 'basic_search').at(-1)
    expect(last).toBeDefined()
    const system = (last!.body as { messages: Array<{ content: string }> }).messages[0]!.content
    expect(system).toContain('How do I get an API key?')
    const embedded = fake.requests.filter((r) => r.kind === 'embedding').at(-1)?.body as { input: string[] }
    expect(embedded.input).toEqual(['And then?\nHow do I get an API key?'])
  })

  it('degrades to the vector seeds with a warning when chunk_edges is missing or unreadable', async () => {
    const [{ text }] = await duckQuery(
      `SELECT text FROM read_parquet('${out('text_units.parquet')}') WHERE human_readable_id = 5`,
    )
    const copy = join(await testdir({}), 'output')
    await cp(join(root, 'output'), copy, { recursive: true })
    const ask = () => runQueryInProcess(root, String(text), 'graph', { data: copy })
    await rm(join(copy, 'chunk_edges.parquet'))
    const missing = await ask()
    expect(missing.stderr).toContain('graphrag: warning: the index has no chunk_edges table')
    const parsed = JSON.parse(missing.stdout) as { warnings: string[]; context: { sources: Array<{ id: number }> } }
    expect(parsed.context.sources.map((s) => s.id)).toEqual([5])
    expect(parsed.warnings).toHaveLength(1)
    await writeFile(join(copy, 'chunk_edges.parquet'), 'not a parquet file')
    const unreadable = await ask()
    expect(unreadable.stderr).toMatch(/graphrag: warning: cannot read .*chunk_edges\.parquet/)
    expect(
      (JSON.parse(unreadable.stdout) as { context: { sources: Array<{ id: number }> } }).context.sources.map(
        (s) => s.id,
      ),
    ).toEqual([5])
  })

  it('re-runs only the failed workflow on the next index run, answering the successful batches from the cache', async () => {
    const before = chunkGraphRequests()
    const table = await readFile(out('chunk_edges.parquet'))
    // In process: the calls, the stats and the bytes of the re-run are asked, not the CLI (its runs above and below).
    await runIndex({ root })
    // Only the failing batch reaches the server again: its first attempt and one retry.
    expect(chunkGraphRequests() - before).toBe(2)
    const stats = JSON.parse(await readFile(out('stats.json'), 'utf8')) as { workflows: Record<string, StatsEntry> }
    expect(Object.keys(stats.workflows)).toContain('create_chunk_graph')
    expect(stats.workflows.create_chunk_graph!.counters.invalid_edges).toBe(12)
    // Same replies (cached or scripted), same bytes.
    expect((await readFile(out('chunk_edges.parquet'))).equals(table)).toBe(true)
  })

  it('with parse_fallback_confidence, links the unparsable batch by step_next edges and counts relation_parse_fallback', async () => {
    const settingsFile = join(root, 'settings.yaml')
    const settings = await readFile(settingsFile, 'utf8')
    await writeFile(
      settingsFile,
      settings.replace('batch_overlap: 1', 'batch_overlap: 1\n  parse_fallback_confidence: 0.3'),
    )
    const run = await runCliInProcess(['index', '--root', root])
    await writeFile(settingsFile, settings)
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain('relation_parse_fallback: 1 of 4 typed-edge replies could not be parsed')
    const stats = JSON.parse(await readFile(out('stats.json'), 'utf8')) as { workflows: Record<string, StatsEntry> }
    expect(stats.workflows.create_chunk_graph!.counters).toMatchObject({
      relation_parse_fallback: 1,
      batches_failed: 0,
    })
    const rows = await duckQuery(
      `SELECT s.human_readable_id::INTEGER AS source, t.human_readable_id::INTEGER AS target, e.relation, e.weight
       FROM read_parquet('${out('chunk_edges.parquet')}') e
       JOIN read_parquet('${out('text_units.parquet')}') s ON s.id = e.source_id JOIN read_parquet('${out('text_units.parquet')}') t ON t.id = e.target_id
       WHERE e.relation = 'step_next'`,
    )
    expect(rows).toEqual([{ source: 0, target: 1, relation: 'step_next', weight: 0.3 }])
  })
})

/** A cross-document batch [unit, n1, n2]: n1 is similar to the unit; n2 → n1 joins two units of one document (both neighbours come from the other document). */
const CROSS: Responder = ({ kind, messages }) => {
  if (kind !== 'chunk_graph') return undefined
  const l = chunkGraphUnits(messages)
  const edges = [
    {
      source: l[1],
      target: l[0],
      relation: 'similar_to',
      weight: 0.7,
      description: `unit ${l[1]} says what unit ${l[0]} says`,
    },
  ]
  if (l.length > 2)
    edges.push({ source: l[2], target: l[1], relation: 'similar_to', weight: 0.6, description: 'same document' })
  return JSON.stringify({ edges })
}

describe('chunk graph with cross-document edges (in process, fake model server)', () => {
  let fake: FakeLlm
  let root: string

  beforeAll(async () => {
    fake = await startFakeLlm({ responders: [CROSS], embeddingDimension: 64 })
    const settings = [
      fakeModelSettingsYaml(fake.baseUrl, { maxRetries: 1 }),
      'chunking:\n  size: 30\n  overlap: 0',
      'extract_graph:\n  max_gleanings: 0',
      'vector_store:\n  vector_size: 64',
      // Random fake vectors are far apart: a threshold of -1 lets every unit of the other document qualify.
      'chunk_graph:\n  cross_document: true\n  sequence_edges: false\n  shared_entity_edges: false\n  cross_document_threshold: -1\n  cross_document_top_k: 2',
      '',
    ].join('\n')
    root = await testdir({ 'settings.yaml': settings, ...DOCS })
    // In process (it throws if the run fails): the batches and the edges are asked, not the CLI.
    await runIndex({ root })
  }, 120_000)

  afterAll(async () => {
    await fake?.close()
  })

  it('sends each unit with its two most similar units of the other document and keeps only edges across documents', async () => {
    const batches = fake.requests
      .filter((r) => r.kind === 'chunk_graph')
      .map((r) => chunkGraphUnits((r.body as { messages: Array<{ role: string; content: string }> }).messages))
    // Each unit of the first document brings two new pairs; later units only bring the pairs not sent yet.
    expect(batches.length).toBeGreaterThanOrEqual(3)
    const docOf = new Map(
      (
        await duckQuery(
          `SELECT human_readable_id::INTEGER AS hr, document_id FROM read_parquet('${join(root, 'output', 'text_units.parquet')}')`,
        )
      ).map((r) => [String(r.hr), r.document_id]),
    )
    for (const batch of batches)
      for (const other of batch.slice(1)) expect(docOf.get(other)).not.toBe(docOf.get(batch[0]!))
    const rows = await duckQuery(
      `SELECT s.human_readable_id::INTEGER AS source, t.human_readable_id::INTEGER AS target, s.document_id <> t.document_id AS crosses, e.origin, e.weight
       FROM read_parquet('${join(root, 'output', 'chunk_edges.parquet')}') e
       JOIN read_parquet('${join(root, 'output', 'text_units.parquet')}') s ON s.id = e.source_id JOIN read_parquet('${join(root, 'output', 'text_units.parquet')}') t ON t.id = e.target_id`,
    )
    expect(rows.map((r) => `${r.source}>${r.target}`).sort()).toEqual(batches.map((b) => `${b[1]}>${b[0]}`).sort())
    expect(rows.every((r) => r.crosses === true && r.origin === 'cross_document' && r.weight === 0.7)).toBe(true)
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8')) as {
      workflows: Record<string, StatsEntry>
    }
    expect(stats.workflows.create_chunk_graph!.counters).toMatchObject({
      llm_batches: batches.length,
      invalid_edges_same_document: batches.filter((b) => b.length === 3).length,
    })
  })
})
