import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { describe, expect, it } from 'vitest'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  type CommunityReportRow,
  COVARIATES,
  DOCUMENTS,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
  type TableSchema,
} from '../../src/model/index.js'
import { decodeParquet, decodeParquetInBatches, encodeParquet } from '../../src/storage/parquet.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { describeShared, sharedPath } from '../support/shared.js'

const FINAL_TABLES: TableSchema[] = [
  DOCUMENTS,
  TEXT_UNITS,
  ENTITIES,
  RELATIONSHIPS,
  COMMUNITIES,
  COMMUNITY_REPORTS,
  COVARIATES,
]

async function duck(sql: string): Promise<Record<string, unknown>[]> {
  const inst = await DuckDBInstance.create(':memory:')
  const con = await inst.connect()
  const res = await con.runAndReadAll(sql)
  return res.getRowObjectsJS() as Record<string, unknown>[]
}

async function describeTypes(file: string): Promise<string[]> {
  const rows = await duck(`DESCRIBE SELECT * FROM read_parquet('${file}')`)
  return rows.map((r) => `${String(r.column_name)}:${String(r.column_type)}`)
}

/** A community_reports row with every text empty and every number zero. */
const BLANK_REPORT: CommunityReportRow = {
  id: 'r',
  human_readable_id: 0,
  community: 0,
  level: 0,
  parent: -1,
  children: [],
  title: '',
  summary: '',
  full_content: '',
  rank: 0,
  rating_explanation: '',
  findings: [],
  full_content_json: '',
  period: '',
  size: 0,
}

describe('parquet encoding', () => {
  it('round-trips every column kind, nulls, empty lists and a leading BOM', async () => {
    const rows = [
      {
        id: '\uFEFFwith-bom',
        human_readable_id: 0,
        community: 3,
        level: 0,
        parent: -1,
        children: [4, 5],
        title: 'Community 3',
        summary: 'é ✓ 🎄',
        full_content: '# T\n\nS',
        rank: 7.5,
        rating_explanation: 'x',
        findings: [{ explanation: 'e1', summary: 's1' }],
        full_content_json: '{}',
        period: '2026-01-01',
        size: 2,
      },
      { ...BLANK_REPORT, id: 'b', human_readable_id: 1, community: 4, level: 1, parent: 3, period: '2026-01-01' },
    ]
    const back = decodeParquet(COMMUNITY_REPORTS, encodeParquet(COMMUNITY_REPORTS, rows), 'x.parquet')
    expect(back).toEqual(rows)
  })

  it('reads in batches of a few megabytes exactly what the whole-table read gives', async () => {
    // 120 rows of 100 KB: three batches; unicode and a BOM straddle nothing, rows stay in order.
    const rows = Array.from({ length: 120 }, (_, i) => ({
      id: `${i === 0 ? '\uFEFF' : ''}unit-${i}`,
      human_readable_id: i,
      text: `${'é ✓ '.repeat(i)}${String(i).repeat(100_000 - 4 * i)}`,
      n_tokens: i,
      document_id: `doc-${i % 7}`,
      entity_ids: i % 3 === 0 ? [] : [`e${i}`, `e${i + 1}`],
      relationship_ids: [],
      covariate_ids: i % 2 === 0 ? null : [`c${i}`],
    }))
    const bytes = encodeParquet(TEXT_UNITS, rows as never)
    const whole = decodeParquet(TEXT_UNITS, bytes, 'x.parquet')
    expect(await decodeParquetInBatches(TEXT_UNITS, bytes, 'x.parquet')).toEqual(whole)
    expect(whole.map((r) => r.id)).toEqual(rows.map((r) => r.id))
  })

  it('reading in batches names the file when it is not Parquet or lacks a required column', async () => {
    const notParquet = new TextEncoder().encode('id,text\n1,a\n')
    await expect(decodeParquetInBatches(TEXT_UNITS, notParquet, 'units.parquet')).rejects.toThrow(
      /units\.parquet: not a readable Parquet file/,
    )
    const reports = encodeParquet(COMMUNITY_REPORTS, [BLANK_REPORT])
    for (const rows of [reports, encodeParquet(COMMUNITY_REPORTS, [])])
      await expect(decodeParquetInBatches(TEXT_UNITS, rows, 'r.parquet')).rejects.toThrow(
        /r\.parquet: missing column "text" of table text_units/,
      )
  })

  it('writes atomically and leaves no temporary files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'graphrag-pq-'))
    const store = new ParquetTableStore(dir)
    await store.write(COVARIATES, [])
    await store.write(COVARIATES, [])
    expect(await readdir(dir)).toEqual(['covariates.parquet'])
    expect(await store.read(COVARIATES)).toEqual([])
  })
})

describeShared('reference tables (pyarrow-written)', () => {
  const cases = FINAL_TABLES.flatMap((schema) =>
    ['christmas-carol-index', 'msgr-v3-dulce']
      .filter((index) => !(index === 'msgr-v3-dulce' && schema.name === 'documents'))
      .map((index) => ({ schema, index })),
  )
  for (const { schema, index } of cases) {
    it(`reads ${index}/${schema.name} without loss and writes it back with the same DuckDB types`, async () => {
      const file = sharedPath('reference', index, `${schema.name}.parquet`)
      const bytes = await readFile(file)
      const rows = decodeParquet(schema, bytes, file)
      expect(await decodeParquetInBatches(schema, bytes, file)).toEqual(rows)
      const expected = await duck(`SELECT * FROM read_parquet('${file}')`)
      expect(rows.length).toBe(expected.length)
      const dir = await mkdtemp(join(tmpdir(), 'graphrag-ref-'))
      const store = new ParquetTableStore(dir)
      await store.write(schema, rows)
      const ours = store.path(schema.name)
      expect(await describeTypes(ours)).toEqual(await describeTypes(file))
      // Value equality through DuckDB on both files, column by column (raw_data is all-null).
      const diff = await duck(
        `SELECT count(*) AS n FROM (SELECT * FROM read_parquet('${file}') EXCEPT ALL SELECT * FROM read_parquet('${ours}'))`,
      )
      expect(Number(diff[0]!.n)).toBe(0)
      expect(await store.read(schema)).toEqual(rows)
    })
  }

  it('keeps the leading BOM of the reference document text', async () => {
    const file = sharedPath('reference', 'christmas-carol-index', 'documents.parquet')
    const [doc] = decodeParquet(DOCUMENTS, await readFile(file), file)
    expect(doc!.text.codePointAt(0)).toBe(0xfeff)
    expect(doc!.text.length).toBe(185067)
  })

  it('reads the Dulce index whose documents table predates raw_data', async () => {
    const file = sharedPath('reference', 'msgr-v3-dulce', 'documents.parquet')
    const docs = decodeParquet(DOCUMENTS, await readFile(file), file)
    expect(docs.length).toBeGreaterThan(0)
    expect(docs[0]!.raw_data).toBeNull()
  })
})
