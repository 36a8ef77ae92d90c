import { cp, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { connect } from '@lancedb/lancedb'
import { beforeAll, describe, expect, it } from 'vitest'
import {
  CHUNK_EDGES,
  COMMUNITIES,
  COMMUNITY_REPORTS,
  DOCUMENTS,
  EMBEDDING_KEYS,
  ENTITIES,
  ENTITY_ALIASES,
  MODEL_REPLIES,
  RELATIONSHIPS,
  TEXT_UNITS,
  type ColumnKind,
  type TableSchema,
} from '../../src/model/index.js'
import { runCli, type CliResult } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { duckDescribe, duckQuery } from '../support/duckdb.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const FINAL_TABLES: Record<string, TableSchema> = {
  documents: DOCUMENTS,
  text_units: TEXT_UNITS,
  entities: ENTITIES,
  relationships: RELATIONSHIPS,
  communities: COMMUNITIES,
  community_reports: COMMUNITY_REPORTS,
  // Ours: the chunk graph (sequence and shared-entity edges offline).
  chunk_edges: CHUNK_EDGES,
}

/** How DuckDB describes each column kind when it reads our Parquet files. */
const DUCKDB_TYPE: Record<ColumnKind, string> = {
  string: 'VARCHAR',
  int64: 'BIGINT',
  double: 'DOUBLE',
  'list<string>': 'VARCHAR[]',
  'list<int64>': 'BIGINT[]',
  'list<double>': 'DOUBLE[]',
  findings: 'STRUCT(explanation VARCHAR, summary VARCHAR)[]',
  // Text input has no raw data: an all-null column is Arrow's null type, which DuckDB reads as INTEGER
  // (as it reads the reference's documents.parquet).
  json: 'INTEGER',
}

/** LanceDB table → the Parquet table whose rows it embeds (the demo's vector_size is 384). */
const VECTOR_SOURCES: Record<string, string> = {
  community_full_content: 'community_reports',
  entity_description: 'entities',
  text_unit_text: 'text_units',
}

/** The README's main command on a copy of fixtures/demo (the repository itself stays clean). */
// The README's index and the first query are spawned; the other queries ask the same command in process
// (runCliInProcess: same main(), output and exit codes, no Node start-up per run).
describe('offline demo (README main command)', () => {
  let root: string
  let run: CliResult
  let seconds: number

  beforeAll(async () => {
    root = join(await testdir({}), 'demo')
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo'), root, { recursive: true })
    for (const generated of ['output', 'cache', 'logs'])
      await rm(join(root, generated), { recursive: true, force: true })
    const started = performance.now()
    run = await runCli(['index', '--root', root], { env: { OPENAI_API_KEY: undefined, GRAPHRAG_API_KEY: undefined } })
    seconds = (performance.now() - started) / 1000
  }, 300_000)

  it('indexes with no key and prints where the outputs are', () => {
    expect(run.code, run.stderr).toBe(0)
    expect(run.stderr).toContain(join(root, 'output'))
    expect(run.stderr).toContain('lancedb')
    console.log(`offline demo index: ${seconds.toFixed(1)} s`)
  })

  it('writes every table the standard method writes and chunk_edges, each with its src/model schema', async () => {
    const files = (await readdir(join(root, 'output'))).filter((f) => f.endsWith('.parquet')).sort()
    // Beside them, our own model_replies and embedding_keys (README: what an update reuses) and the
    // entity_aliases of entity resolution (on by default), with their src/model schemas.
    const ours = [MODEL_REPLIES, EMBEDDING_KEYS, ENTITY_ALIASES]
    expect(files).toEqual([...Object.keys(FINAL_TABLES), ...ours.map((t) => t.name)].map((t) => `${t}.parquet`).sort())
    for (const table of ours) {
      expect(await duckDescribe(join(root, 'output', `${table.name}.parquet`))).toEqual(
        table.columns.map((c) => `${c.name}:VARCHAR`),
      )
    }
    for (const [name, schema] of Object.entries(FINAL_TABLES)) {
      const expected = schema.columns.map((c) => `${c.name}:${DUCKDB_TYPE[c.kind]}`)
      expect(await duckDescribe(join(root, 'output', `${name}.parquet`)), name).toEqual(expected)
    }
  })

  it("writes the three LanceDB tables in the standard method's vector-store layout, one row per source row", async () => {
    const db = await connect(join(root, 'output', 'lancedb'))
    expect((await db.tableNames()).sort()).toEqual(Object.keys(VECTOR_SOURCES).sort())
    const dateParts = (prefix: string): string[] =>
      [
        'year:Int64',
        'month:Int64',
        'month_name:Utf8',
        'day:Int64',
        'day_of_week:Utf8',
        'hour:Int64',
        'quarter:Int64',
      ].map((p) => `${prefix}_${p}`)
    const layout = [
      'id:Utf8',
      'vector:FixedSizeList[384]<Float32>',
      'create_date:Utf8',
      'update_date:Utf8',
      ...dateParts('create_date'),
      ...dateParts('update_date'),
    ]
    for (const [name, source] of Object.entries(VECTOR_SOURCES)) {
      const table = await db.openTable(name)
      const fields = (await table.schema()).fields.map((f) => `${f.name}:${String(f.type)}`)
      expect(fields, name).toEqual(layout)
      const [{ rows }] = await duckQuery(
        `SELECT count(*)::INTEGER AS rows FROM read_parquet('${join(root, 'output', `${source}.parquet`)}')`,
      )
      expect(await table.countRows(), name).toBe(rows)
    }
    db.close()
  })

  it('answers local and basic questions offline with the ranked context', async () => {
    for (const method of ['local', 'basic']) {
      const answer = await runCli([
        'query',
        'What happened to the ferry Kittiwake?',
        '--root',
        root,
        '--method',
        method,
      ])
      expect(answer.code, answer.stderr).toBe(0)
      expect(answer.stdout).toContain('No completion model is configured')
      expect(answer.stdout).toMatch(method === 'local' ? /## Entities/ : /## Sources/)
    }
  })

  it('answers global and DRIFT questions offline with the most relevant, highest-rated reports', async () => {
    const reports = (await duckQuery(
      `SELECT title, rank FROM read_parquet('${join(root, 'output', 'community_reports.parquet')}') ORDER BY rank DESC`,
    )) as { title: string; rank: number }[]
    // The README's own question: no word of it decides, so the highest-rated report comes first.
    const global = await runCliInProcess(['query', 'What are the main themes?', '--root', root, '--method', 'global'])
    expect(global.code, global.stderr).toBe(0)
    expect(global.stdout).toContain('global_search.completion_model_id is null')
    expect(global.stdout).toMatch(/^## 1\. /m)
    const first = /^## 1\. (.*)$/m.exec(global.stdout)![1]
    expect(reports.filter((r) => r.rank === reports[0]!.rank).map((r) => r.title)).toContain(first)
    const drift = await runCliInProcess([
      'query',
      'What happened to the ferry Kittiwake?',
      '--root',
      root,
      '--method',
      'drift',
      '--json',
    ])
    expect(drift.code, drift.stderr).toBe(0)
    const out = JSON.parse(drift.stdout) as { response: string; context: { reports: { title: string }[] } }
    expect(out.response).toContain('drift_search.completion_model_id is null')
    expect(out.context.reports.length).toBeGreaterThan(0)
    expect(out.response.toLowerCase()).toContain('kittiwake')
  })

  it('builds sequence and shared-entity edges offline, one sequence edge per pair of consecutive chunks', async () => {
    const file = (name: string) => `read_parquet('${join(root, 'output', `${name}.parquet`)}')`
    const origins = await duckQuery(
      `SELECT origin, relation, count(*)::INTEGER AS n, min(weight) AS lo, max(weight) AS hi FROM ${file('chunk_edges')} GROUP BY ALL ORDER BY origin`,
    )
    const [{ pairs }] = await duckQuery(
      `SELECT (count(*) - count(DISTINCT document_id))::INTEGER AS pairs FROM ${file('text_units')}`,
    )
    expect(origins.map((o) => [o.origin, o.relation])).toEqual([
      ['sequence', 'sequence'],
      ['shared_entities', 'related_to'],
    ])
    expect(origins[0]).toMatchObject({ n: pairs, lo: 1, hi: 1 })
    expect(origins[1]!.hi).toBe(1)
    expect(origins[1]!.lo as number).toBeGreaterThan(0)
    // Every edge joins two existing text units.
    const [{ dangling }] = await duckQuery(
      `SELECT count(*)::INTEGER AS dangling FROM ${file('chunk_edges')} e WHERE e.source_id NOT IN (SELECT id FROM ${file('text_units')}) OR e.target_id NOT IN (SELECT id FROM ${file('text_units')})`,
    )
    expect(dangling).toBe(0)
  })

  it('answers graph questions offline: the ranked context shows the sources reached through the chunk graph', async () => {
    const text = await runCliInProcess([
      'query',
      'What happened to the ferry Kittiwake?',
      '--root',
      root,
      '--method',
      'graph',
    ])
    expect(text.code, text.stderr).toBe(0)
    expect(text.stdout).toContain('No completion model is configured (graph_search.completion_model_id is null)')
    expect(text.stdout).toMatch(/↳ related: "[^"\n]*" \((sequence|related_to)(, reversed)?\), from Source \d+/)
    const json = await runCliInProcess([
      'query',
      'What happened to the ferry Kittiwake?',
      '--root',
      root,
      '--method',
      'graph',
      '--json',
    ])
    expect(json.code, json.stderr).toBe(0)
    const sources = (JSON.parse(json.stdout) as { context: { sources: Array<Record<string, string | number>> } })
      .context.sources
    expect(sources.filter((s) => s.hop === 0)).toHaveLength(10)
    const reached = sources.filter((s) => s.hop !== 0)
    expect(reached.length).toBeGreaterThan(0)
    for (const s of reached)
      expect(s).toMatchObject({
        reached_from: expect.any(Number),
        relation: expect.stringMatching(/^(sequence|related_to)$/),
        link: expect.any(String),
      })
  })
})
