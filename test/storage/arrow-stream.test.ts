import { describe, expect, it, vi } from 'vitest'
import { NLP_RELATIONSHIPS, RELATIONSHIPS } from '../../src/model/relationships.js'
import { column, defineTable, type TableSchema } from '../../src/model/schema.js'
import { Table, tableToIPC } from '../../src/storage/arrow.js'
import { buildVector } from '../../src/storage/arrow-columns.js'
import { arrowStreamByColumn, arrowStreamPlan } from '../../src/storage/arrow-stream.js'

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

  it('is the same stream made a window at a time, windows cutting strings, numbers and offsets anywhere', () => {
    // Multi-byte characters and 8-byte numbers cut by windows of odd sizes: each window must hold
    // exactly its run of the stream (a value cut at an edge is written in part on each side).
    const rows = Array.from({ length: 700 }, (_, i) => ({
      id: `r${i}`,
      human_readable_id: i * 2 ** 33 - 7,
      source: i % 13 === 0 ? null : `é雪${'x'.repeat(i % 37)}${i}`,
      target: `b${i}`,
      description: i % 2 === 0 ? undefined : '\u{1F600}d',
      weight: i / 3,
      combined_degree: i,
      text_unit_ids: i % 11 === 0 ? null : Array.from({ length: i % 4 }, (_, k) => ID(i + k)),
    }))
    const whole = arrowsOwn(RELATIONSHIPS, rows)
    const plan = arrowStreamPlan(RELATIONSHIPS, rows as never)!
    expect(plan.byteLength).toBe(whole.byteLength)
    for (const size of [3, 7, 8, 1000, 4093, 65_536, whole.byteLength + 5]) {
      const windows = [...plan.windows(size)]
      expect(windows.slice(0, -1).every((window) => window.byteLength === size)).toBe(true)
      expect(Buffer.concat(windows).equals(Buffer.from(whole))).toBe(true)
    }
  })

  it('encodes a value longer than a window once, not once per window over it', () => {
    const one = defineTable('one', [column('text', 'string')] as const)
    const rows = [{ text: 'é'.repeat(300_000) }, { text: 'short' }]
    const plan = arrowStreamPlan(one, rows as never)!
    const encode = vi.spyOn(TextEncoder.prototype, 'encode')
    try {
      const windows = [...plan.windows(4096)]
      expect(windows.length).toBeGreaterThan(140)
      expect(encode.mock.calls.length).toBeLessThanOrEqual(1)
      expect(Buffer.concat(windows).equals(Buffer.from(arrowsOwn(one, rows)))).toBe(true)
    } finally {
      encode.mockRestore()
    }
  })
})
