/**
 * The plain-JavaScript Parquet reader the query path uses (src/storage/parquet-js.ts) gives the rows
 * parquet-wasm gives, for every column kind written by us and for the reference's pyarrow-written
 * index tables, with the same errors naming the file.
 */
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { DuckDBInstance } from '@duckdb/node-api'
import { parquetMetadata } from 'hyparquet'
import { describe, expect, it } from 'vitest'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  COVARIATES,
  ENTITIES,
  INPUT_DOCUMENTS,
  RELATIONSHIPS,
  type TableSchema,
  TEXT_UNITS,
} from '../../src/model/index.js'
import { decodeParquet, encodeParquet } from '../../src/storage/parquet.js'
import { decodeParquetJs } from '../../src/storage/parquet-js.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { describeShared, sharedPath } from '../support/shared.js'

const REPORTS = [
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
    rank: 7.25,
    rating_explanation: 'x',
    findings: [
      { explanation: 'e1', summary: 's1' },
      { explanation: '', summary: '中文' },
    ],
    full_content_json: '{}',
    period: '2026-01-01',
    size: 2 ** 40,
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
    rank: -0.5,
    rating_explanation: '',
    findings: [],
    full_content_json: '',
    period: '',
    size: 0,
  },
]

const UNITS = Array.from({ length: 40 }, (_, i) => ({
  id: `unit-${i}`,
  human_readable_id: i,
  text: `${'é ✓ '.repeat(i)}text ${i}`,
  n_tokens: i * 3,
  document_id: `doc-${i % 7}`,
  entity_ids: i % 3 === 0 ? [] : [`e${i}`, `e${i + 1}`],
  relationship_ids: [],
  covariate_ids: i % 2 === 0 ? null : [`c${i}`],
}))

const DOCS = [
  {
    id: 'd1',
    title: 'a.csv',
    text: 'x',
    creation_date: '2026',
    raw_data: { author: 'Ann', pages: 3, tags: ['a', 'b'] },
  },
  { id: 'd2', title: 'b.csv', text: 'y', creation_date: '2026', raw_data: null },
]

async function sameRows(schema: TableSchema, bytes: Uint8Array): Promise<unknown[]> {
  const expected = decodeParquet(schema, bytes, 'x.parquet')
  const actual = await decodeParquetJs(schema, bytes, 'x.parquet')
  expect(actual).toEqual(expected)
  // toEqual treats undefined and missing alike: the JSON must match too.
  expect(JSON.stringify(actual)).toBe(JSON.stringify(expected))
  return actual
}

describe('plain-JavaScript Parquet reader', () => {
  it('reads every column kind as parquet-wasm does: int64, doubles, lists, findings, null lists, a BOM', async () => {
    const reports = await sameRows(COMMUNITY_REPORTS, encodeParquet(COMMUNITY_REPORTS, REPORTS))
    expect(reports).toEqual(REPORTS)
    const units = await sameRows(TEXT_UNITS, encodeParquet(TEXT_UNITS, UNITS as never))
    expect((units[1] as { covariate_ids: string[] }).covariate_ids).toEqual(['c1'])
    expect((units[0] as { covariate_ids: string[] }).covariate_ids).toEqual([])
    await sameRows(COVARIATES, encodeParquet(COVARIATES, []))
  })

  it('leaves tables with free-form json columns to parquet-wasm (a query store reads them with it)', async () => {
    const bytes = encodeParquet(INPUT_DOCUMENTS, DOCS as never)
    await expect(decodeParquetJs(INPUT_DOCUMENTS, bytes, 'd.parquet')).rejects.toThrow(/json columns/)
    const dir = await mkdtemp(join(tmpdir(), 'graphrag-pqjs-'))
    await new ParquetTableStore(dir).write(INPUT_DOCUMENTS, DOCS as never)
    expect(await new ParquetTableStore(dir, 'js').read(INPUT_DOCUMENTS)).toEqual(
      await new ParquetTableStore(dir).read(INPUT_DOCUMENTS),
    )
  })

  it('names the file when it is not Parquet or lacks a required column; a missing nullable column reads as null', async () => {
    const notParquet = new TextEncoder().encode('id,text\n1,a\n')
    await expect(decodeParquetJs(TEXT_UNITS, notParquet, 'units.parquet')).rejects.toThrow(
      /^units\.parquet: not a readable Parquet file/,
    )
    for (const rows of [REPORTS.slice(1), []])
      await expect(decodeParquetJs(TEXT_UNITS, encodeParquet(COMMUNITY_REPORTS, rows), 'r.parquet')).rejects.toThrow(
        /^r\.parquet: missing column "text" of table text_units$/,
      )
    // A column of raw bytes where a table declares text: the file names itself, no bare TypeError.
    const dir = await mkdtemp(join(tmpdir(), 'graphrag-pqjs-'))
    const bytesFile = join(dir, 'bytes.parquet')
    const duck = await (await DuckDBInstance.create(':memory:')).connect()
    await duck.run(`COPY (SELECT ['\\xAA'::BLOB] AS entity_ids, 'x' AS id) TO '${bytesFile}' (FORMAT parquet)`)
    const shapeWithList = { name: 't', columns: [{ name: 'entity_ids', kind: 'list<string>', nullable: false }] }
    await expect(decodeParquetJs(shapeWithList as TableSchema, await readFile(bytesFile), 'b.parquet')).rejects.toThrow(
      /^b\.parquet: not a readable Parquet file/,
    )
    const withoutCovariates = encodeParquet(TEXT_UNITS, [{ ...UNITS[1] }] as never)
    const shape = { ...TEXT_UNITS, columns: [...TEXT_UNITS.columns, { name: 'extra', kind: 'string', nullable: true }] }
    expect(await decodeParquetJs(shape as TableSchema, withoutCovariates, 'u.parquet')).toEqual([
      { ...UNITS[1], extra: null },
    ])
  })

  it('reads a file of several row groups (rewritten by DuckDB) as parquet-wasm does', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'graphrag-pqjs-'))
    const ours = join(dir, 'ours.parquet')
    const many = join(dir, 'many.parquet')
    const units = Array.from({ length: 5000 }, (_, i) => ({
      ...UNITS[i % UNITS.length],
      id: `unit-${i}`,
      human_readable_id: i,
    }))
    await writeFile(ours, encodeParquet(TEXT_UNITS, units as never))
    const duck = await (await DuckDBInstance.create(':memory:')).connect()
    // DuckDB groups rows by 2,048 at the least: three row groups.
    await duck.run(`COPY (SELECT * FROM read_parquet('${ours}')) TO '${many}' (FORMAT parquet, ROW_GROUP_SIZE 2048)`)
    const bytes = await readFile(many)
    expect(
      parquetMetadata(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length)).row_groups.length,
    ).toBe(3)
    const rows = await sameRows(TEXT_UNITS, bytes)
    expect(rows.map((r) => (r as { id: string }).id)).toEqual(units.map((u) => u.id))
  })

  it('reads a slice of a larger buffer (a Buffer from the file pool)', async () => {
    const bytes = encodeParquet(COMMUNITY_REPORTS, REPORTS)
    const padded = new Uint8Array(bytes.length + 16)
    padded.set(bytes, 8)
    expect(await decodeParquetJs(COMMUNITY_REPORTS, padded.subarray(8, 8 + bytes.length), 'x')).toEqual(REPORTS)
  })

  it('is what a table store made for queries reads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'graphrag-pqjs-'))
    await new ParquetTableStore(dir).write(COMMUNITY_REPORTS, REPORTS)
    expect(await new ParquetTableStore(dir, 'js').read(COMMUNITY_REPORTS)).toEqual(REPORTS)
    await expect(new ParquetTableStore(dir, 'js').read(TEXT_UNITS)).rejects.toThrow(/table text_units not found/)
  })
})

describeShared('plain-JavaScript Parquet reader on the reference tables (pyarrow-written)', () => {
  // Documents have a free-form json column (raw_data), which stays with parquet-wasm.
  const tables: TableSchema[] = [TEXT_UNITS, ENTITIES, RELATIONSHIPS, COMMUNITIES, COMMUNITY_REPORTS, COVARIATES]
  it.each(['christmas-carol-index', 'msgr-v3-dulce'])('reads every table of %s as parquet-wasm does', async (index) => {
    let read = 0
    for (const schema of tables) {
      const file = sharedPath('reference', index, `${schema.name}.parquet`)
      if (!existsSync(file)) continue
      await sameRows(schema, await readFile(file))
      read++
    }
    expect(read).toBeGreaterThanOrEqual(5)
  })
})
