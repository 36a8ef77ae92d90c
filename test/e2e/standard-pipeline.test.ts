import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { connect } from '@lancedb/lancedb'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { startFakeLlm, fakeModelSettingsYaml, type FakeLlm } from '../support/fake-llm/index.js'
import { runCli, type CliResult } from '../support/cli.js'
import { duckDescribe, duckQuery } from '../support/duckdb.js'
import { describeShared, sharedPath } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const TABLES = ['documents', 'text_units', 'entities', 'relationships', 'communities', 'community_reports', 'covariates']

describeShared('standard method end to end (Christmas Carol, replayed LLM answers)', () => {
  let fake: FakeLlm
  let root: string
  let first: CliResult
  let firstCalls: number

  beforeAll(async () => {
    fake = await startFakeLlm({ replay: 'christmas-carol', embeddingDimension: 64 })
    const settings = [
      fakeModelSettingsYaml(fake.baseUrl),
      'chunking:\n  prepend_metadata: [title]',
      'extract_claims:\n  enabled: true',
      'vector_store:\n  vector_size: 64',
      'snapshots:\n  embeddings: true',
      '',
    ].join('\n')
    root = await testdir({ 'settings.yaml': settings, 'input/a-christmas-carol.txt': await readFile(sharedPath('corpora', 'a-christmas-carol.txt')) })
    first = await runCli(['index', '--root', root, '--method', 'standard'])
    firstCalls = fake.requests.length
  }, 600_000)

  afterAll(async () => {
    await fake?.close()
  })

  it('writes every table with the reference DuckDB schema', async () => {
    expect(first.code, first.stderr).toBe(0)
    for (const table of TABLES) {
      const ours = await duckDescribe(join(root, 'output', `${table}.parquet`))
      const reference = await duckDescribe(sharedPath('reference', 'christmas-carol-index', `${table}.parquet`))
      expect(ours, table).toEqual(reference)
    }
  })

  it('writes three LanceDB tables that answer a nearest-neighbour search', async () => {
    const db = await connect(join(root, 'output', 'lancedb'))
    expect((await db.tableNames()).sort()).toEqual(['community_full_content', 'entity_description', 'text_unit_text'])
    for (const name of await db.tableNames()) {
      const table = await db.openTable(name)
      const [row] = await table.query().limit(1).toArray()
      const hits = await table.vectorSearch(Array.from(row.vector as Iterable<number>)).distanceType('cosine').limit(3).toArray()
      expect(hits[0].id).toBe(row.id)
    }
  })

  it('puts the dry-run estimate next to the actual usage in stats.json', async () => {
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    const rows = stats.estimate as Array<{ workflow: string; estimated: Record<string, number>; actual: Record<string, number> }>
    expect(rows.map((r) => r.workflow)).toEqual(['extract_graph', 'extract_covariates', 'create_community_reports', 'generate_text_embeddings'])
    for (const r of rows) console.log(`estimate ${r.workflow}: ${JSON.stringify(r.estimated)} actual ${JSON.stringify(r.actual)}`)
    const within30 = (estimated: number, actual: number) => Math.abs(estimated - actual) <= 0.3 * actual
    for (const r of rows) expect(within30(r.estimated.calls!, r.actual.calls!), `${r.workflow} calls`).toBe(true)
    for (const field of ['calls', 'promptTokens', 'completionTokens']) {
      const total = (side: 'estimated' | 'actual') => rows.reduce((sum, r) => sum + r[side][field]!, 0)
      expect(within30(total('estimated'), total('actual')), `total ${field}`).toBe(true)
    }
  })

  it('gives every community that has a context a report', async () => {
    const missing = await duckQuery(
      `SELECT c.community FROM read_parquet('${join(root, 'output', 'communities.parquet')}') c
       LEFT JOIN read_parquet('${join(root, 'output', 'community_reports.parquet')}') r USING (community)
       WHERE r.community IS NULL AND len(c.relationship_ids) > 0`,
    )
    expect(missing).toEqual([])
  })

  it('answers with all four query methods over the index it built', async () => {
    for (const method of ['local', 'global', 'drift', 'basic']) {
      const before = fake.requests.length
      const run = await runCli(['query', 'Who is Ebenezer Scrooge?', '--root', root, '--method', method, '--json'])
      expect(run.code, `${method}: ${run.stderr}`).toBe(0)
      const answer = JSON.parse(run.stdout) as { method: string; response: string; context: Record<string, unknown[] | undefined> }
      expect(answer.method).toBe(method)
      expect(answer.response.length, method).toBeGreaterThan(0)
      const kinds = fake.requests.slice(before).map((r) => r.kind)
      expect(kinds.length, method).toBeGreaterThan(0)
      if (method === 'local') expect(answer.context.entities?.length).toBeGreaterThan(0)
      if (method === 'basic') expect(answer.context.sources?.length).toBeGreaterThan(0)
    }
    firstCalls = fake.requests.length
  })

  it('a second run with a warm cache makes zero LLM calls and writes identical tables', async () => {
    const before = await Promise.all(TABLES.map((t) => readFile(join(root, 'output', `${t}.parquet`))))
    const second = await runCli(['index', '--root', root, '--method', 'standard', '--no-resume', '--skip-validation'])
    expect(second.code, second.stderr).toBe(0)
    expect(fake.requests.length).toBe(firstCalls)
    const after = await Promise.all(TABLES.map((t) => readFile(join(root, 'output', `${t}.parquet`))))
    TABLES.forEach((t, i) => expect(Buffer.compare(before[i]!, after[i]!), t).toBe(0))
    expect((await readdir(join(root, 'output'))).filter((f) => f.startsWith('embeddings.'))).toHaveLength(3)
  })
})
