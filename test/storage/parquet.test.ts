import { mkdtemp, readdir, readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { describe, expect, it } from 'vitest'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  COVARIATES,
  DOCUMENTS,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
  type TableSchema,
} from '../../src/model/index.js'
import { decodeParquet, encodeParquet } from '../../src/storage/parquet.js'
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
      {
        id: 'b',
        human_readable_id: 1,
        community: 4,
        level: 1,
        parent: 3,
        children: [],
        title: '',
        summary: '',
        full_content: '',
        rank: 0,
        rating_explanation: '',
        findings: [],
        full_content_json: '',
        period: '2026-01-01',
        size: 0,
      },
    ]
    const back = decodeParquet(COMMUNITY_REPORTS, encodeParquet(COMMUNITY_REPORTS, rows), 'x.parquet')
    expect(back).toEqual(rows)
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
      const rows = decodeParquet(schema, await readFile(file), file)
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
