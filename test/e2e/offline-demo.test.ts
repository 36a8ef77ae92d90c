import { cp, readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { connect } from '@lancedb/lancedb'
import { beforeAll, describe, expect, it } from 'vitest'
import { COMMUNITIES, COMMUNITY_REPORTS, DOCUMENTS, ENTITIES, MODEL_REPLIES, RELATIONSHIPS, TEXT_UNITS, type ColumnKind, type TableSchema } from '../../src/model/index.js'
import { runCli, type CliResult } from '../support/cli.js'
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
describe('offline demo (README main command)', () => {
  let root: string
  let run: CliResult
  let seconds: number

  beforeAll(async () => {
    root = join(await testdir({}), 'demo')
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo'), root, { recursive: true })
    for (const generated of ['output', 'cache', 'logs']) await rm(join(root, generated), { recursive: true, force: true })
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

  it('writes every table the standard method writes, each with its src/model schema', async () => {
    const files = (await readdir(join(root, 'output'))).filter((f) => f.endsWith('.parquet')).sort()
    // Beside them, our own model_replies (README: the answers an update reuses), with its src/model schema.
    expect(files).toEqual([...Object.keys(FINAL_TABLES), MODEL_REPLIES.name].map((t) => `${t}.parquet`).sort())
    expect(await duckDescribe(join(root, 'output', 'model_replies.parquet'))).toEqual(MODEL_REPLIES.columns.map((c) => `${c.name}:VARCHAR`))
    for (const [name, schema] of Object.entries(FINAL_TABLES)) {
      const expected = schema.columns.map((c) => `${c.name}:${DUCKDB_TYPE[c.kind]}`)
      expect(await duckDescribe(join(root, 'output', `${name}.parquet`)), name).toEqual(expected)
    }
  })

  it("writes the three LanceDB tables in the standard method's vector-store layout, one row per source row", async () => {
    const db = await connect(join(root, 'output', 'lancedb'))
    expect((await db.tableNames()).sort()).toEqual(Object.keys(VECTOR_SOURCES).sort())
    const dateParts = (prefix: string): string[] =>
      ['year:Int64', 'month:Int64', 'month_name:Utf8', 'day:Int64', 'day_of_week:Utf8', 'hour:Int64', 'quarter:Int64'].map((p) => `${prefix}_${p}`)
    const layout = ['id:Utf8', 'vector:FixedSizeList[384]<Float32>', 'create_date:Utf8', 'update_date:Utf8', ...dateParts('create_date'), ...dateParts('update_date')]
    for (const [name, source] of Object.entries(VECTOR_SOURCES)) {
      const table = await db.openTable(name)
      const fields = (await table.schema()).fields.map((f) => `${f.name}:${String(f.type)}`)
      expect(fields, name).toEqual(layout)
      const [{ rows }] = await duckQuery(`SELECT count(*)::INTEGER AS rows FROM read_parquet('${join(root, 'output', `${source}.parquet`)}')`)
      expect(await table.countRows(), name).toBe(rows)
    }
    db.close()
  })

  it('answers local and basic questions offline with the ranked context', async () => {
    for (const method of ['local', 'basic']) {
      const answer = await runCli(['query', 'What happened to the ferry Kittiwake?', '--root', root, '--method', method])
      expect(answer.code, answer.stderr).toBe(0)
      expect(answer.stdout).toContain('No completion model is configured')
      expect(answer.stdout).toMatch(method === 'local' ? /## Entities/ : /## Sources/)
    }
    const global = await runCli(['query', 'What are the main themes?', '--root', root, '--method', 'global'])
    expect(global.code).toBe(1)
    expect(global.stderr).toContain('global_search.completion_model_id')
  })
})
