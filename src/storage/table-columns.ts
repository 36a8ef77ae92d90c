/**
 * A table read as columns instead of row objects (TableStore.read with ReadOptions.columns): numbers in
 * Float64Arrays, strings and lists of strings as Int32Array codes into one list of the distinct values
 * of the read. A dense corpus's relationships repeat a few hundred thousand titles and text-unit ids
 * over tens of millions of rows: as codes they take 4 bytes a value instead of an object per row.
 */
import { StorageError } from '../errors.js'
import type { ColumnKind, RowOf, TableSchema } from '../model/schema.js'
import { type Data, type Table, Type, type Vector } from './arrow.js'
import { readColumn } from './arrow-columns.js'
import { missingColumn } from './table-rows.js'
import type { RowSource } from './table-store.js'

/** A string column: row i's value is `values[codes[i]]` (null for a null). */
interface StringCodes {
  readonly kind: 'string'
  readonly codes: Int32Array
}

/** A list-of-strings column: row i's items are `values[codes[j]]` for j from offsets[i] to offsets[i + 1]. */
interface StringListCodes {
  readonly kind: 'list<string>'
  readonly offsets: Int32Array
  readonly codes: Int32Array
}

/** A double or int64 column; `nulls[i]` is 1 where row i is null (undefined when none is). */
interface NumberColumn {
  readonly kind: 'double' | 'int64'
  readonly values: Float64Array
  readonly nulls: Uint8Array | undefined
}

export type ColumnValues = StringCodes | StringListCodes | NumberColumn

/** The kinds a column read takes. */
const COLUMN_KINDS: ReadonlySet<ColumnKind> = new Set(['string', 'list<string>', 'double', 'int64'])

export interface TableColumns {
  readonly length: number
  /** The distinct strings of every string and list column of the read, in the order first met. */
  readonly values: readonly (string | null)[]
  readonly columns: ReadonlyMap<string, ColumnValues>
}

/** One column of the read, of the kind asked for (throws when the name is not a column of the read). */
export function columnOf<K extends ColumnValues['kind']>(table: TableColumns, name: string, kind: K): ColumnOfKind<K> {
  const column = table.columns.get(name)
  if (column === undefined || column.kind !== kind) throw new TypeError(`no ${kind} column ${name} in this read`)
  return column as ColumnOfKind<K>
}

type ColumnOfKind<K extends ColumnValues['kind']> = K extends 'string'
  ? StringCodes
  : K extends 'list<string>'
    ? StringListCodes
    : NumberColumn

/** Where a store hands the decoded table: Arrow batches (Parquet) or rows (the other readers), in table order. */
export interface ColumnSink {
  /** The stored table's rows (before any row filter) and its file for messages; called before the first batch. */
  expect(rowCount: number, file: string): void
  arrow(table: Table, firstIndex: number, keep: ((index: number) => boolean) | undefined): void
  rows(rows: readonly Record<string, unknown>[]): void
}

/** A ColumnSink that gathers the columns of `schema` (every column must be of a COLUMN_KINDS kind). */
export class ColumnCollector implements ColumnSink {
  private readonly codeOf = new Map<string | null, number>()
  private readonly values: (string | null)[] = []
  private readonly builders: ColumnBuilder[]
  private length = 0
  private file = ''

  /** `count`: the rows a row filter will keep, when known (room is made for them instead of the whole table). */
  constructor(
    private readonly schema: TableSchema,
    private readonly count?: number,
  ) {
    for (const col of schema.columns)
      if (!COLUMN_KINDS.has(col.kind)) throw new TypeError(`column ${col.name} (${col.kind}) cannot be read as codes`)
    this.builders = schema.columns.map((col) => newBuilder(col.kind))
  }

  expect(rowCount: number, file: string): void {
    this.file = file
    for (const builder of this.builders) builder.reserve(Math.min(rowCount, this.count ?? rowCount))
  }

  arrow(table: Table, firstIndex: number, keep: ((index: number) => boolean) | undefined): void {
    const picked = pickedRows(table.numRows, firstIndex, keep)
    this.schema.columns.forEach((col, c) => {
      const vector = table.getChild(col.name)
      if (vector === null && !col.nullable) throw missingColumn(this.schema, col, this.file)
      const builder = this.builders[c]!
      if (vector !== null && fastKind(vector, col.kind)) builder.addArrow(vector, picked, this)
      else builder.addValues(pickValues(vector === null ? undefined : readColumn(vector), picked), this)
    })
    this.length += picked.length
  }

  rows(rows: readonly Record<string, unknown>[]): void {
    this.schema.columns.forEach((col, c) => {
      this.builders[c]!.addValues(
        rows.map((row) => row[col.name] ?? null),
        this,
      )
    })
    this.length += rows.length
  }

  /** The code of a string (new strings get the next one). */
  code(value: string | null): number {
    let code = this.codeOf.get(value)
    if (code === undefined) {
      code = this.values.length
      this.codeOf.set(value, code)
      this.values.push(value)
    }
    return code
  }

  /** The columns gathered (the collector is spent). */
  finish(): TableColumns {
    const columns = new Map<string, ColumnValues>()
    this.schema.columns.forEach((col, c) => {
      columns.set(col.name, this.builders[c]!.finish(this.length))
    })
    this.codeOf.clear()
    return { length: this.length, values: this.values, columns }
  }
}

/** Indices (within the batch) of the rows `keep` accepts. */
function pickedRows(count: number, firstIndex: number, keep: ((index: number) => boolean) | undefined): Int32Array {
  const picked = new Int32Array(count)
  let n = 0
  for (let i = 0; i < count; i++) if (keep === undefined || keep(firstIndex + i)) picked[n++] = i
  return picked.subarray(0, n)
}

function pickValues(values: readonly unknown[] | undefined, picked: Int32Array): unknown[] {
  return Array.from(picked, (i) => (values === undefined ? null : (values[i] ?? null)))
}

/** Whether a column comes in the Arrow form the builders read directly (else as plain values). */
function fastKind(vector: Vector, kind: ColumnKind): boolean {
  const type = vector.type.typeId
  if (kind === 'string') return type === Type.Utf8
  if (kind === 'list<string>') return type === Type.List && vector.type.children[0]?.type.typeId === Type.Utf8
  return type === Type.Float || type === Type.Int
}

interface ColumnBuilder {
  reserve(rows: number): void
  addArrow(vector: Vector, picked: Int32Array, strings: ColumnCollector): void
  addValues(values: readonly unknown[], strings: ColumnCollector): void
  finish(length: number): ColumnValues
}

function newBuilder(kind: ColumnKind): ColumnBuilder {
  if (kind === 'string') return new StringBuilder()
  if (kind === 'list<string>') return new StringListBuilder()
  return new NumberBuilder(kind as NumberColumn['kind'])
}

/** An Int32Array grown by doubling. */
class GrowingInts {
  array = new Int32Array(16)
  length = 0

  reserve(size: number): void {
    if (size > this.array.length) {
      const next = new Int32Array(size)
      next.set(this.array.subarray(0, this.length))
      this.array = next
    }
  }

  push(value: number): void {
    if (this.length === this.array.length) this.reserve(this.array.length * 2)
    this.array[this.length++] = value
  }

  /** The values, in an array of their exact size. */
  done(): Int32Array {
    return this.length === this.array.length ? this.array : this.array.slice(0, this.length)
  }
}

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true, fatal: false })

function isValid(data: Data, i: number): boolean {
  if (data.nullCount === 0 || !data.nullBitmap || data.nullBitmap.length === 0) return true
  const bit = data.offset + i
  return (data.nullBitmap[bit >> 3]! & (1 << (bit & 7))) !== 0
}

/**
 * Codes of a Utf8 column's values at `rows` of one Arrow chunk. A value whose bytes equal the previous
 * one's (a source repeated over its pairs) takes its code without decoding the text again.
 */
function utf8Codes(data: Data, rows: Iterable<number>, out: GrowingInts, strings: ColumnCollector): void {
  const offsets = data.valueOffsets as Int32Array
  const bytes = data.values as Uint8Array
  let last = { start: -1, end: -1, code: -1 }
  for (const i of rows) {
    if (!isValid(data, i)) {
      out.push(strings.code(null))
      continue
    }
    const start = offsets[data.offset + i]!
    const end = offsets[data.offset + i + 1]!
    if (!sameBytes(bytes, last.start, last.end, start, end)) {
      last = { start, end, code: strings.code(utf8.decode(bytes.subarray(start, end))) }
    }
    out.push(last.code)
  }
}

function sameBytes(bytes: Uint8Array, aStart: number, aEnd: number, bStart: number, bEnd: number): boolean {
  if (aStart < 0 || aEnd - aStart !== bEnd - bStart) return false
  for (let k = 0; k < aEnd - aStart; k++) if (bytes[aStart + k] !== bytes[bStart + k]) return false
  return true
}

/** The Arrow chunks of a vector with the batch row each starts at. */
function* chunks(vector: Vector): Generator<{ data: Data; first: number }> {
  let first = 0
  for (const data of vector.data) {
    yield { data, first }
    first += data.length
  }
}

/** The picked rows that fall in one chunk, as indices within it. */
function* rowsIn(picked: Int32Array, first: number, length: number): Generator<number> {
  for (const i of picked) if (i >= first && i < first + length) yield i - first
}

class StringBuilder implements ColumnBuilder {
  private readonly codes = new GrowingInts()

  reserve(rows: number): void {
    this.codes.reserve(rows)
  }

  addArrow(vector: Vector, picked: Int32Array, strings: ColumnCollector): void {
    for (const { data, first } of chunks(vector))
      utf8Codes(data, rowsIn(picked, first, data.length), this.codes, strings)
  }

  addValues(values: readonly unknown[], strings: ColumnCollector): void {
    for (const value of values) this.codes.push(strings.code(value === null ? null : String(value)))
  }

  finish(): StringCodes {
    return { kind: 'string', codes: this.codes.done() }
  }
}

class StringListBuilder implements ColumnBuilder {
  private readonly offsets = new GrowingInts()
  private readonly codes = new GrowingInts()

  constructor() {
    this.offsets.push(0)
  }

  reserve(rows: number): void {
    this.offsets.reserve(rows + 1)
  }

  addArrow(vector: Vector, picked: Int32Array, strings: ColumnCollector): void {
    for (const { data, first } of chunks(vector)) {
      const offsets = data.valueOffsets as Int32Array
      const child = data.children[0]!
      for (const i of rowsIn(picked, first, data.length)) {
        // A null list reads as an empty one (table-rows.ts's normalise).
        if (isValid(data, i)) {
          const start = offsets[data.offset + i]!
          const end = offsets[data.offset + i + 1]!
          utf8Codes(child, range(start - child.offset, end - child.offset), this.codes, strings)
        }
        this.offsets.push(this.codes.length)
      }
    }
  }

  addValues(values: readonly unknown[], strings: ColumnCollector): void {
    for (const list of values) {
      for (const item of (list as readonly (string | null)[] | null) ?? []) this.codes.push(strings.code(item))
      this.offsets.push(this.codes.length)
    }
  }

  finish(): StringListCodes {
    return { kind: 'list<string>', offsets: this.offsets.done(), codes: this.codes.done() }
  }
}

function* range(start: number, end: number): Generator<number> {
  for (let i = start; i < end; i++) yield i
}

class NumberBuilder implements ColumnBuilder {
  private values = new Float64Array(16)
  private nulls: Uint8Array | undefined
  private length = 0

  constructor(private readonly kind: NumberColumn['kind']) {}

  reserve(rows: number): void {
    if (rows <= this.values.length) return
    const next = new Float64Array(rows)
    next.set(this.values.subarray(0, this.length))
    this.values = next
    if (this.nulls !== undefined) this.reserveNulls()
  }

  private reserveNulls(): void {
    const next = new Uint8Array(this.values.length)
    if (this.nulls !== undefined) next.set(this.nulls.subarray(0, this.length))
    this.nulls = next
  }

  private push(value: number | null): void {
    if (this.length === this.values.length) this.reserve(this.values.length * 2)
    if (value === null) {
      if (this.nulls === undefined) this.reserveNulls()
      this.nulls![this.length] = 1
    }
    this.values[this.length++] = value ?? 0
  }

  addArrow(vector: Vector, picked: Int32Array): void {
    for (const { data, first } of chunks(vector)) {
      const values = data.values as ArrayLike<number | bigint>
      for (const i of rowsIn(picked, first, data.length))
        this.push(isValid(data, i) ? Number(values[data.offset + i]) : null)
    }
  }

  addValues(values: readonly unknown[]): void {
    for (const value of values) this.push(value === null ? null : Number(value))
  }

  finish(length: number): NumberColumn {
    const values = length === this.values.length ? this.values : this.values.slice(0, length)
    return { kind: this.kind, values, nulls: this.nulls?.slice(0, length) }
  }
}

/** Row `i` of a column read as plain values (the row form a reader would have returned). */
export function valueAt(table: TableColumns, column: ColumnValues, i: number): unknown {
  switch (column.kind) {
    case 'string':
      return table.values[column.codes[i]!] ?? null
    case 'list<string>': {
      const items: (string | null)[] = []
      for (let j = column.offsets[i]!; j < column.offsets[i + 1]!; j++) items.push(table.values[column.codes[j]!]!)
      return items
    }
    default:
      return column.nulls?.[i] === 1 ? null : column.values[i]
  }
}

/** Rows `start` to `end` of the columns of `schema`, as the row reader would have returned them. */
export function rowsOfColumns<S extends TableSchema>(
  schema: S,
  table: TableColumns,
  start = 0,
  end = table.length,
): RowOf<S>[] {
  const columns = schema.columns.map((col) => {
    const column = table.columns.get(col.name)
    if (column === undefined) throw new StorageError(`column ${col.name} of table ${schema.name} was not read`)
    return [col.name, column] as const
  })
  const rows: Record<string, unknown>[] = []
  for (let i = start; i < Math.min(end, table.length); i++) {
    const row: Record<string, unknown> = {}
    for (const [name, column] of columns) row[name] = valueAt(table, column, i)
    rows.push(row)
  }
  return rows as RowOf<S>[]
}

/** Rows in one Parquet row group (parquet.ts's ROW_GROUP_ROWS, not imported: that module loads parquet-wasm). */
const ONE_ROW_GROUP = 1024 * 1024

/**
 * Rows made from columns as the store is handed them: a table of one row group is made whole by the
 * writer anyway, so it goes as an array, which a run keeps for its later reads (decoded-tables.ts: an
 * update reads the tables it wrote again); a bigger one stays a source, made a row group at a time.
 */
export function asWritten<R>(rows: RowSource<R>): RowSource<R> {
  return rows.length <= ONE_ROW_GROUP ? rows.slice() : rows
}
