import { readFile, readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { connect } from '@lancedb/lancedb'
import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  CHUNK_EDGES,
  COMMUNITY_REPORTS,
  COVARIATES,
  DOCUMENTS,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
} from '../../src/model/index.js'
import type { SearchMethod } from '../../src/query/index.js'
import { decodeParquet } from '../../src/storage/parquet.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import {
  fakeEmbedding,
  replayExpectations,
  startFakeLlm,
  fakeModelSettingsYaml,
  type FakeLlm,
} from '../support/fake-llm/index.js'
import { EXACT_TITLES } from '../support/exact-titles.js'
import { runIndex } from '../../src/index/run/runner.js'
import { runCli, type CliResult } from '../support/cli.js'
import { runQueryInProcess } from '../support/query-command.js'
import { duckDescribe, duckQuery } from '../support/duckdb.js'
import { describeShared, sharedPath } from '../support/shared.js'
import {
  pickUsage,
  readEstimateRows,
  totalsWithin30Percent,
  USAGE_FIELDS,
  within30Percent,
  type Usage,
} from '../support/estimate.js'
import { testdir } from '../support/testdir.js'

const TABLES = [
  'documents',
  'text_units',
  'entities',
  'relationships',
  'communities',
  'community_reports',
  'covariates',
]
const VECTOR_SIZE = 64

describeShared('standard method end to end (Christmas Carol, replayed LLM answers)', () => {
  let fake: FakeLlm
  let root: string
  let dryRun: CliResult
  let first: CliResult
  let firstCalls: number
  const reference = new ParquetTableStore(sharedPath('reference', 'christmas-carol-index'))
  const output = () => new ParquetTableStore(join(root, 'output'))

  beforeAll(async () => {
    fake = await startFakeLlm({ replay: 'christmas-carol', embeddingDimension: VECTOR_SIZE })
    const settings = [
      fakeModelSettingsYaml(fake.baseUrl),
      'chunking:\n  prepend_metadata: [title]',
      'extract_graph:\n  max_gleanings: 1',
      'extract_claims:\n  enabled: true\n  max_gleanings: 1',
      `vector_store:\n  vector_size: ${VECTOR_SIZE}`,
      'snapshots:\n  embeddings: true',
      // Compared with Microsoft GraphRAG's index: exact titles, no noise control.
      EXACT_TITLES,
    ].join('\n')
    // The reference document's own text (the corpus file lacks its BOM), so the CLI's chunking must
    // give the reference text units and the graph can be compared unit by unit.
    root = await testdir({ 'settings.yaml': settings, 'input/a-christmas-carol.txt': await referenceDocumentText() })
    dryRun = await runCli(['index', '--root', root, '--method', 'standard', '--dry-run'])
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
      const theirs = await duckDescribe(sharedPath('reference', 'christmas-carol-index', `${table}.parquet`))
      expect(ours, table).toEqual(theirs)
    }
  })

  it('writes our chunk_edges table with its src/model schema: sequence edges between consecutive units, shared-entity edges', async () => {
    const types: Record<string, string> = { string: 'VARCHAR', double: 'DOUBLE' }
    const file = join(root, 'output', 'chunk_edges.parquet')
    expect(await duckDescribe(file)).toEqual(CHUNK_EDGES.columns.map((c) => `${c.name}:${types[c.kind]}`))
    const units = await output().read(TEXT_UNITS)
    const edges = await output().read(CHUNK_EDGES)
    const position = new Map(units.map((u, i) => [u.id, i]))
    const sequence = edges.filter((e) => e.origin === 'sequence')
    expect(sequence.map((e) => [position.get(e.source_id), position.get(e.target_id)])).toEqual(
      units.slice(1).map((_, i) => [i, i + 1]),
    )
    const shared = edges.filter((e) => e.origin === 'shared_entities')
    expect(shared.length).toBeGreaterThan(0)
    // Each shared-entity edge is backed by at least 2 entities both units mention (LLM edges are off by default).
    const entityIds = new Map(units.map((u) => [u.id, new Set(u.entity_ids)]))
    for (const e of shared)
      expect(
        [...entityIds.get(e.source_id)!].filter((id) => entityIds.get(e.target_id)!.has(id)).length,
      ).toBeGreaterThanOrEqual(2)
    expect(edges.every((e) => e.origin === 'sequence' || e.origin === 'shared_entities')).toBe(true)
  })

  it('chunks into the reference text units and extracts the reference entities with their text units', async () => {
    expect((await output().read(TEXT_UNITS)).map((u) => u.id)).toEqual(
      (await reference.read(TEXT_UNITS)).map((u) => u.id),
    )
    const ours = await output().read(ENTITIES)
    const theirs = new Map((await reference.read(ENTITIES)).map((e) => [e.title, e]))
    expect(ours.map((e) => e.title).sort()).toEqual([...theirs.keys()].sort())
    for (const e of ours) expect(e.text_unit_ids, e.title).toEqual(theirs.get(e.title)!.text_unit_ids)
  })

  it('extracts the reference relationships, weighted by the replayed strengths (none forced to 1)', async () => {
    const titles = new Set((await reference.read(ENTITIES)).map((e) => e.title))
    // 84 reference relationships name an endpoint that is not an entity (the reference predates the
    // orphan filter); the replay only sends relationships between entities.
    const reachable = (await reference.read(RELATIONSHIPS)).filter((r) => titles.has(r.source) && titles.has(r.target))
    const ours = await output().read(RELATIONSHIPS)
    const pair = (r: { source: string; target: string }) => `${r.source} -> ${r.target}`
    expect(ours.map(pair).sort()).toEqual(reachable.map(pair).sort())
    const strength = new Map<string, number>()
    for (const unit of Object.values(replayExpectations())) {
      for (const r of unit.relationships) strength.set(`${unit.textUnitId}|${pair(r)}`, r.strength)
    }
    for (const r of ours) {
      const expected = r.text_unit_ids.reduce((sum, id) => sum + strength.get(`${id}|${pair(r)}`)!, 0)
      expect(r.weight, pair(r)).toBe(expected)
    }
  })

  it('extracts the reference claims, including those only the claim gleaning reply carries', async () => {
    const units = Object.values(replayExpectations())
    const gleaned = units.flatMap((u) => u.claims.slice(u.firstReplyClaims)).filter((c) => c.description !== '')
    expect(gleaned.length).toBeGreaterThan(0)
    expect(fake.requests.filter((r) => r.kind === 'extract_claims_continue')).toHaveLength(units.length)
    const covariates = await output().read(COVARIATES)
    // As in the in-process test: the reference's 25 junk rows (status null) come back without a description.
    const claimKey = (c: { text_unit_id: string; subject_id: string | null; type: string | null }) =>
      `${c.text_unit_id}|${c.subject_id?.toUpperCase()}|${c.type}`
    const real = (await reference.read(COVARIATES)).filter((c) => c.status !== null)
    const ours = covariates.filter((c) => c.description !== null)
    expect(ours.map(claimKey)).toEqual(real.map(claimKey))
    expect(covariates.length - ours.length).toBe(24)
  })

  it('writes three LanceDB tables, one row per entity, report and text unit, that find a text by its embedding', async () => {
    expect((await lanceRowCounts()).sort()).toEqual(await expectedRowCounts())
    await expectNearestNeighbours()
  })

  it('prints the same --dry-run estimate that stats.json records, within ±30 % of the actual usage per workflow', async () => {
    expect(dryRun.code, dryRun.stderr).toBe(0)
    const rows = await readEstimateRows(root)
    expect(rows.map((r) => r.workflow)).toEqual([
      'extract_graph',
      'extract_covariates',
      'create_community_reports',
      'generate_text_embeddings',
    ])
    expect(printedEstimate(dryRun.stdout)).toEqual(
      rows.map((r) => ({ workflow: r.workflow, ...pickUsage(r.estimated) })),
    )
    for (const r of rows)
      console.log(
        `estimate ${r.workflow}: ${JSON.stringify(pickUsage(r.estimated))} actual ${JSON.stringify(pickUsage(r.actual))}`,
      )
    for (const r of rows) {
      for (const field of USAGE_FIELDS) {
        if (r.actual[field] === 0 && r.estimated[field] === 0) continue
        expect(
          within30Percent(r.estimated[field], r.actual[field]),
          `${r.workflow} ${field}: estimated ${r.estimated[field]}, actual ${r.actual[field]}`,
        ).toBe(true)
      }
    }
    for (const { field, ok } of totalsWithin30Percent(rows)) expect(ok, `total ${field}`).toBe(true)
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
    const question = 'Who is Ebenezer Scrooge?'
    // The first through the CLI; the others in process (the same command, without a CLI start each).
    const ask = async (method: SearchMethod): Promise<CliResult> =>
      method === 'local'
        ? runCli(['query', question, '--root', root, '--method', method, '--json'])
        : { code: 0, ...(await runQueryInProcess(root, question, method)) }
    for (const method of ['local', 'global', 'drift', 'basic'] as const) {
      const before = fake.requests.length
      const run = await ask(method)
      expect(run.code, `${method}: ${run.stderr}`).toBe(0)
      const answer = JSON.parse(run.stdout) as {
        method: string
        response: string
        context: Record<string, unknown[] | undefined>
      }
      expect(answer.method).toBe(method)
      expect(answer.response.length, method).toBeGreaterThan(0)
      const kinds = fake.requests.slice(before).map((r) => r.kind)
      expect(kinds.length, method).toBeGreaterThan(0)
      if (method === 'local') expect(answer.context.entities?.length).toBeGreaterThan(0)
      if (method === 'basic') expect(answer.context.sources?.length).toBeGreaterThan(0)
    }
    firstCalls = fake.requests.length
  })

  it('a second run with a warm cache makes zero LLM calls, writes identical tables and no duplicate vectors', async () => {
    const before = await Promise.all(TABLES.map((t) => readFile(join(root, 'output', `${t}.parquet`))))
    // In process: the warm cache, the tables and the vectors are asked, not the CLI (its first run above).
    await runIndex({ root, method: 'standard', resume: false, skipValidation: true })
    expect(fake.requests.length).toBe(firstCalls)
    const after = await Promise.all(TABLES.map((t) => readFile(join(root, 'output', `${t}.parquet`))))
    TABLES.forEach((t, i) => expect(Buffer.compare(before[i]!, after[i]!), t).toBe(0))
    expect((await readdir(join(root, 'output'))).filter((f) => f.startsWith('embeddings.'))).toHaveLength(3)
    expect((await lanceRowCounts()).sort()).toEqual(await expectedRowCounts())
    await expectNearestNeighbours()
  })

  /** `name rows` for each LanceDB table. */
  async function lanceRowCounts(): Promise<string[]> {
    const db = await connect(join(root, 'output', 'lancedb'))
    return Promise.all(
      (await db.tableNames()).map(async (name) => `${name} ${await (await db.openTable(name)).countRows()}`),
    )
  }

  async function expectedRowCounts(): Promise<string[]> {
    const out = output()
    return [
      `community_full_content ${(await out.read(COMMUNITY_REPORTS)).length}`,
      `entity_description ${(await out.read(ENTITIES)).length}`,
      `text_unit_text ${(await out.read(TEXT_UNITS)).length}`,
    ]
  }

  /** For one row per table, the fake server's embedding of the row's text finds that row first. */
  async function expectNearestNeighbours(): Promise<void> {
    const out = output()
    const middle = <T>(rows: readonly T[]) => rows[Math.floor(rows.length / 2)]!
    const entity = middle(await out.read(ENTITIES))
    const report = middle(await out.read(COMMUNITY_REPORTS))
    const unit = middle(await out.read(TEXT_UNITS))
    const probes: Array<[string, string, string]> = [
      ['entity_description', `${entity.title}:${entity.description}`, entity.id],
      ['community_full_content', report.full_content, report.id],
      ['text_unit_text', unit.text, unit.id],
    ]
    const db = await connect(join(root, 'output', 'lancedb'))
    for (const [name, text, id] of probes) {
      const hits = await (await db.openTable(name))
        .vectorSearch(fakeEmbedding(text, VECTOR_SIZE))
        .distanceType('cosine')
        .limit(3)
        .toArray()
      expect(hits[0].id, name).toBe(id)
    }
  }
})

/** The reference document's text (it starts with a BOM, which the corpus file lacks). */
async function referenceDocumentText(): Promise<string> {
  const file = sharedPath('reference', 'christmas-carol-index', 'documents.parquet')
  const [doc] = decodeParquet(DOCUMENTS, await readFile(file), file)
  return doc!.text
}

/** The per-workflow lines of `graphrag index --dry-run`: `  extract_graph   243 calls   344,330 prompt   108,616 completion  $0.31`. */
function printedEstimate(stdout: string): Array<{ workflow: string } & Usage> {
  const number = (text: string) => Number(text.replace(/,/g, ''))
  return [...stdout.matchAll(/^ {2}(\w+)\s+([\d,]+) calls\s+([\d,]+) prompt\s+([\d,]+) completion/gm)]
    .filter((m) => m[1] !== 'total')
    .map((m) => ({
      workflow: m[1]!,
      calls: number(m[2]!),
      promptTokens: number(m[3]!),
      completionTokens: number(m[4]!),
    }))
}
