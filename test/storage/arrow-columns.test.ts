import * as parquet from 'parquet-wasm/node'
import { describe, expect, it } from 'vitest'
import { buildVector, readColumn } from '../../src/storage/arrow-columns.js'
import { Field, List, Struct, Table, tableToIPC, Utf8, type Vector, vectorFromArray } from '../../src/storage/arrow.js'

function parquetOf(vector: Vector): Buffer {
  const props = new parquet.WriterPropertiesBuilder().setCompression(parquet.Compression.SNAPPY).build()
  const ipc = tableToIPC(new Table({ text: vector }), 'stream')
  return Buffer.from(parquet.writeParquet(parquet.Table.fromIPCStream(ipc), props))
}

describe('string columns', () => {
  it("are built in one pass with the values, validity and Parquet bytes of Arrow's own builder", () => {
    const cases: (string | null | undefined)[][] = [
      [],
      [''],
      [null],
      ['a', null, 'b', undefined, ''],
      ['\uFEFFleading BOM', 'café', '雪の夜', '👩‍👩‍👧 family', 'lone \uD800 surrogate', 'tab\tand\nnewline'],
      Array.from({ length: 200 }, (_, i) => (i % 7 === 0 ? null : `value ${i} ${'é'.repeat(i % 13)}`)),
    ]
    for (const values of cases) {
      const built = buildVector('string', values)
      const arrows = vectorFromArray(
        values.map((v) => v ?? null),
        new Utf8(),
      )
      expect(readColumn(built)).toEqual(readColumn(arrows))
      expect(parquetOf(built).equals(parquetOf(arrows))).toBe(true)
    }
  })
})

describe('findings columns', () => {
  const type = new List(
    new Field(
      'item',
      new Struct([new Field('explanation', new Utf8(), true), new Field('summary', new Utf8(), true)]),
      true,
    ),
  )
  const finding = (summary: string | null, explanation: string | null) => ({ summary, explanation })

  it("are built from two string columns with the values, validity and Parquet bytes of Arrow's own builders", () => {
    const cases: unknown[][] = [
      [],
      [[]],
      [null],
      [[finding('s', 'e')]],
      [null, [], [finding('a', null), finding(null, 'b')], undefined, [finding('', '')]],
      [[finding('\uFEFFBOM', 'café 雪 👩‍👩‍👧'), finding('lone \uD800', 'tab\tnewline\n')]],
      Array.from({ length: 300 }, (_, i) =>
        i % 11 === 0 ? null : Array.from({ length: i % 5 }, (_, k) => finding(`s${i}.${k}`, 'é'.repeat(k + (i % 9)))),
      ),
      // Not findings as reports write them (a number, a null finding): Arrow's builders, as before.
      [[{ summary: 1, explanation: 'x' }]],
      [[null]],
    ]
    for (const values of cases) {
      const built = buildVector('findings', values)
      const arrows = vectorFromArray(
        values.map((v) => v ?? null),
        type,
      )
      expect(readColumn(built)).toEqual(readColumn(arrows))
      expect(parquetOf(built).equals(parquetOf(arrows))).toBe(true)
    }
  })
})
