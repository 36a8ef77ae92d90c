import { describe, expect, it } from 'vitest'
import { NLP_RELATIONSHIPS, RELATIONSHIPS } from '../../src/model/relationships.js'
import { column, defineTable, type TableSchema } from '../../src/model/schema.js'
import { Table, tableToIPC } from '../../src/storage/arrow.js'
import { buildVector } from '../../src/storage/arrow-columns.js'
import { arrowStreamByColumn } from '../../src/storage/arrow-stream.js'

/** apache-arrow's stream of the vectors arrow-columns.ts builds: what the column-at-a-time stream must equal. */
function arrowsOwn(schema: TableSchema, rows: readonly Record<string, unknown>[]): Uint8Array {
  const columns = Object.fromEntries(
    schema.columns.map((col) => [
      col.name,
      buildVector(
        col.kind,
        rows.map((row) => row[col.name]),
      ),
    ]),
  )
  return tableToIPC(new Table(columns), 'stream')
}

function expectSameStream(schema: TableSchema, rows: readonly Record<string, unknown>[]): void {
  const ours = arrowStreamByColumn(schema, rows as never)
  expect(ours).toBeDefined()
  expect(Buffer.from(ours!).equals(Buffer.from(arrowsOwn(schema, rows)))).toBe(true)
}

const ID = (i: number) => `${i}`.padStart(128, 'f')

describe('an Arrow stream written a column at a time', () => {
  it("is apache-arrow's own stream for noun-graph relationships, byte for byte", () => {
    const rows = Array.from({ length: 1001 }, (_, i) => ({
      source: `PHRASE ${i % 17}`,
      target: i % 5 === 0 ? 'ÉBÈNE 雪' : `PHRASE ${i}`,
      weight: i / 7,
      text_unit_ids: Array.from({ length: i % 4 }, (_, k) => ID(i + k)),
      description: '',
    }))
    expectSameStream(NLP_RELATIONSHIPS, rows)
  })

  it('is the same with null strings, null lists, int64 columns and a leading U+FEFF', () => {
    const rows = Array.from({ length: 130 }, (_, i) => ({
      id: `r${i}`,
      human_readable_id: i * 3 - 50,
      source: i % 9 === 0 ? null : `\uFEFFa${i}`,
      target: `b${i}`,
      description: i % 2 === 0 ? undefined : 'd',
      weight: -i,
      combined_degree: 2 ** 40 + i,
      text_unit_ids: i % 11 === 0 ? null : [ID(i)],
    }))
    expectSameStream(RELATIONSHIPS, rows)
    const one = defineTable('one', [column('text', 'string')] as const)
    expectSameStream(one, [{ text: 'x' }])
  })

  it('leaves other columns and values, and empty tables, to the vector builders', () => {
    expect(arrowStreamByColumn(NLP_RELATIONSHIPS, [])).toBeUndefined()
    const withNullItem = [{ source: 'a', target: 'b', weight: 1, text_unit_ids: ['u', null], description: '' }]
    expect(arrowStreamByColumn(NLP_RELATIONSHIPS, withNullItem as never)).toBeUndefined()
    const nullWeight = [{ source: 'a', target: 'b', weight: null, text_unit_ids: [], description: '' }]
    expect(arrowStreamByColumn(NLP_RELATIONSHIPS, nullWeight as never)).toBeUndefined()
  })
})
