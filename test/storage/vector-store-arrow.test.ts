import { describe, expect, it } from 'vitest'
import { Int64, Utf8, makeVector, vectorFromArray } from '../../src/storage/arrow.js'
import {
  batchIds,
  batchVectors,
  buildVectorTable,
  constantColumn,
  vectorTableSchema,
} from '../../src/storage/vector-store-arrow.js'
import { openVectorStore } from '../../src/storage/vector-store.js'
import { testdir } from '../support/testdir.js'

/** Every value of a column as JS (bigints, strings, nulls), and its validity count. */
function valuesOf(vector: { length: number; nullCount: number; get(i: number): unknown }) {
  return { values: Array.from({ length: vector.length }, (_, i) => vector.get(i)), nulls: vector.nullCount }
}

describe('vector table columns built into their buffers', () => {
  it('a constant column holds what apache-arrow builders make of the same values, on every row', () => {
    for (const n of [0, 1, 7, 8, 9, 1000]) {
      for (const [type, value] of [
        [new Utf8(), 'Wednesday'],
        [new Utf8(), 'ünïcødé ✓'],
        [new Utf8(), null],
        [new Int64(), 2026n],
        [new Int64(), null],
      ] as const) {
        const built = makeVector(constantColumn(type, n, value))
        const reference = vectorFromArray(new Array(n).fill(value), type)
        expect(valuesOf(built)).toEqual(valuesOf(reference))
        if (n > 0) expect(built.get(n - 1)).toBe(value)
      }
    }
  })

  it('builds every column of the schema from the rows and the date, read back the same', () => {
    const rows = [
      { id: 'a', vector: [1, 2] },
      { id: "b'é", vector: new Float32Array([3, 4]) },
      { id: 'c', vector: [0.5, -1] },
    ]
    const table = buildVectorTable(vectorTableSchema(2), rows, 2, new Date('2027-03-14T09:26:53.589Z'))
    const row = (i: number) =>
      Object.fromEntries(table.schema.fields.map((f) => [f.name, table.getChild(f.name)!.get(i)]))
    expect(row(1)).toMatchObject({
      id: "b'é",
      create_date: '2027-03-14T09:26:53.589000+00:00',
      update_date: null,
      create_date_year: 2027n,
      create_date_month: 3n,
      create_date_month_name: 'March',
      create_date_day: 14n,
      create_date_day_of_week: 'Sunday',
      create_date_hour: 9n,
      create_date_quarter: 1n,
      update_date_year: null,
      update_date_month_name: null,
    })
    expect(table.getChild('update_date_day_of_week')!.nullCount).toBe(3)
    expect(batchIds(table.getChild('id'))).toEqual(['a', "b'é", 'c'])
    expect(batchVectors(table.getChild('vector'), 3).map((v) => Array.from(v))).toEqual([
      [1, 2],
      [3, 4],
      [0.5, -1],
    ])
  })

  it('reads back each row its own vector from LanceDB batches, copied out of them', async () => {
    const dir = await testdir({})
    const store = await openVectorStore(dir)
    const rows = Array.from({ length: 3000 }, (_, i) => ({ id: `r${i}`, vector: [i, -i, i / 7] }))
    const writer = store.writeTable('t', new Date(0))
    // Several fragments, so the scan hands back several batches.
    for (let s = 0; s < rows.length; s += 700) await writer.add(rows.slice(s, s + 700))
    await writer.finish()
    const all = await store.vectorsById('t')
    expect(all.size).toBe(3000)
    for (const r of [rows[0]!, rows[699]!, rows[700]!, rows[2999]!])
      expect(Array.from(all.get(r.id)!)).toEqual(Array.from(Float32Array.from(r.vector)))
    // Each copy owns its memory: not a view over the batch's buffer.
    expect(all.get('r5')!.buffer.byteLength).toBe(12)
    const some = await store.vectorsById('t', ['r2', 'r2999', 'absent'])
    expect([...some.keys()].sort()).toEqual(['r2', 'r2999'])
    expect((await store.ids('t')).sort()).toEqual(rows.map((r) => r.id).sort())
    store.close()
  })
})
