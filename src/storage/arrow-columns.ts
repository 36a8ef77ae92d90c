/**
 * Conversion between row objects and Arrow columns, driven by the table declarations in src/model.
 * Strings are decoded by hand so that a leading U+FEFF survives (Arrow's decoder strips it, and the
 * reference document ids are SHA-512 of the text *with* the BOM).
 */
import {
  Bool,
  Field,
  Float64,
  Int64,
  List,
  Null,
  Struct,
  Type,
  Utf8,
  makeData,
  makeVector,
  vectorFromArray,
  type Data,
  type DataType,
  type Vector,
} from './arrow.js'
import type { ColumnKind, JsonValue } from '../model/schema.js'

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true, fatal: false })

function arrowTypeOf(kind: ColumnKind): DataType {
  switch (kind) {
    case 'string':
      return new Utf8()
    case 'int64':
      return new Int64()
    case 'double':
      return new Float64()
    case 'list<string>':
      return new List(new Field('item', new Utf8(), true))
    case 'list<int64>':
      return new List(new Field('item', new Int64(), true))
    case 'list<double>':
      return new List(new Field('item', new Float64(), true))
    case 'findings':
      return new List(
        new Field(
          'item',
          new Struct([new Field('explanation', new Utf8(), true), new Field('summary', new Utf8(), true)]),
          true,
        ),
      )
    case 'json':
      return new Null()
  }
}

/** Builds the Arrow vector of one column from row values. */
export function buildVector(kind: ColumnKind, values: readonly unknown[]): Vector {
  if (kind === 'string' && values.every((v) => typeof v === 'string' || v === null || v === undefined))
    return buildUtf8Vector(values as ReadonlyArray<string | null | undefined>)
  if (kind === 'list<string>' && values.every(isStringListOrNull)) return buildUtf8ListVector(values)
  if (kind === 'findings' && values.every(isFindingsOrNull)) return buildFindingsVector(values)
  switch (kind) {
    case 'int64':
      return vectorFromArray(
        values.map((v) => (v === null || v === undefined ? null : BigInt(Math.trunc(v as number)))),
        new Int64(),
      )
    case 'list<int64>':
      return vectorFromArray(
        values.map((v) => (v == null ? null : (v as number[]).map((n) => BigInt(Math.trunc(n))))),
        arrowTypeOf(kind),
      )
    case 'json':
      return buildJsonVector(values as ReadonlyArray<{ [key: string]: JsonValue } | null>)
    default:
      return vectorFromArray(values.map((v) => (v === undefined ? null : v)) as unknown[], arrowTypeOf(kind))
  }
}

const utf8Encoder = new TextEncoder()

/** Arrow's offsets of a string column: where each value's UTF-8 bytes start; nulls take no bytes. */
export function utf8Offsets(values: ReadonlyArray<string | null | undefined>): { offsets: Int32Array; size: number } {
  const offsets = new Int32Array(values.length + 1)
  let size = 0
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (typeof value === 'string') size += Buffer.byteLength(value, 'utf8')
    offsets[i + 1] = size
  }
  return { offsets, size }
}

/**
 * A string column written in one pass into buffers of the exact size. vectorFromArray encodes each
 * value apart and copies it into a buffer that doubles as it grows, so a 200 MB document cost up to
 * three times its size while the table was built. Same values and validity, so the same Parquet bytes.
 */
function buildUtf8Vector(values: ReadonlyArray<string | null | undefined>): Vector {
  const { offsets, size } = utf8Offsets(values)
  const data = new Uint8Array(size)
  const validity = new Uint8Array(Math.ceil(values.length / 64) * 8)
  let nullCount = 0
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (typeof value !== 'string') {
      nullCount++
      continue
    }
    utf8Encoder.encodeInto(value, data.subarray(offsets[i]))
    validity[i >> 3] = (validity[i >> 3] as number) | (1 << (i & 7))
  }
  return makeVector(
    makeData({
      type: new Utf8(),
      length: values.length,
      nullCount,
      nullBitmap: nullCount === 0 ? null : validity,
      valueOffsets: offsets,
      data,
    }),
  )
}

function isStringListOrNull(value: unknown): value is readonly (string | null)[] | null | undefined {
  return value == null || (Array.isArray(value) && value.every((v) => typeof v === 'string' || v === null))
}

/**
 * A list-of-strings column (text-unit ids per relationship: millions of short lists) with exact-size
 * buffers, as buildUtf8Vector: vectorFromArray's doubling buffers held up to twice the column while
 * it was built. Same values and validity, so the same Parquet bytes.
 */
function buildUtf8ListVector(lists: ReadonlyArray<readonly (string | null)[] | null | undefined>): Vector {
  const offsets = new Int32Array(lists.length + 1)
  const validity = new Uint8Array(Math.ceil(lists.length / 64) * 8)
  let nullCount = 0
  let count = 0
  for (let i = 0; i < lists.length; i++) {
    const list = lists[i]
    if (list == null) nullCount++
    else {
      count += list.length
      validity[i >> 3] = (validity[i >> 3] as number) | (1 << (i & 7))
    }
    offsets[i + 1] = count
  }
  const items = new Array<string | null>(count)
  for (let i = 0, at = 0; i < lists.length; i++) for (const item of lists[i] ?? []) items[at++] = item
  return makeVector(
    makeData({
      type: new List<Utf8>(new Field('item', new Utf8(), true)),
      length: lists.length,
      nullCount,
      nullBitmap: nullCount === 0 ? null : validity,
      valueOffsets: offsets,
      child: buildUtf8Vector(items).data[0]!,
    }),
  )
}

/** A report's findings as rows hold them: a list of { summary, explanation } strings. */
type Findings = ReadonlyArray<{ summary: string | null; explanation: string | null }>

const isTextOrNull = (v: unknown): boolean => typeof v === 'string' || v === null || v === undefined

function isFindingsOrNull(value: unknown): value is Findings | null | undefined {
  if (value == null) return true
  if (!Array.isArray(value)) return false
  for (const f of value as unknown[]) {
    if (typeof f !== 'object' || f === null) return false
    const { summary, explanation } = f as { summary?: unknown; explanation?: unknown }
    if (!isTextOrNull(summary) || !isTextOrNull(explanation)) return false
  }
  return true
}

/**
 * The findings column (a list of structs per report: ~28,000 reports at 100k entities) from two
 * string columns and the list offsets: Arrow's struct and list builders took most of the report
 * table's encoding. Same values and validity, so the same Parquet bytes.
 */
function buildFindingsVector(lists: ReadonlyArray<Findings | null | undefined>): Vector {
  const offsets = new Int32Array(lists.length + 1)
  const validity = new Uint8Array(Math.ceil(lists.length / 64) * 8)
  let nullCount = 0
  const explanations: Array<string | null | undefined> = []
  const summaries: Array<string | null | undefined> = []
  for (let i = 0; i < lists.length; i++) {
    const list = lists[i]
    if (list == null) nullCount++
    else {
      for (const f of list) {
        explanations.push(f.explanation)
        summaries.push(f.summary)
      }
      validity[i >> 3] = (validity[i >> 3] as number) | (1 << (i & 7))
    }
    offsets[i + 1] = explanations.length
  }
  const item = new Struct([new Field('explanation', new Utf8(), true), new Field('summary', new Utf8(), true)])
  const struct = makeData({
    type: item,
    length: explanations.length,
    nullCount: 0,
    children: [buildUtf8Vector(explanations).data[0]!, buildUtf8Vector(summaries).data[0]!],
  })
  return makeVector(
    makeData({
      type: new List(new Field('item', item, true)),
      length: lists.length,
      nullCount,
      nullBitmap: nullCount === 0 ? null : validity,
      valueOffsets: offsets,
      child: struct,
    }),
  )
}

/** Free-form row data: Arrow null when every value is null (as pandas writes it), else a struct. */
function buildJsonVector(values: ReadonlyArray<{ [key: string]: JsonValue } | null>): Vector {
  const present = values.filter((v): v is { [key: string]: JsonValue } => v !== null && v !== undefined)
  if (present.length === 0)
    return vectorFromArray(
      values.map(() => null),
      new Null(),
    )
  const keys: string[] = []
  for (const v of present) for (const k of Object.keys(v)) if (!keys.includes(k)) keys.push(k)
  const fields = keys.map((k) => new Field(k, inferScalarType(present.map((v) => v[k])), true))
  const rows = values.map((v) => {
    if (v == null) return null
    const out: Record<string, unknown> = {}
    for (const f of fields) out[f.name] = scalarFor(f.type, v[f.name])
    return out
  })
  return vectorFromArray(rows, new Struct(fields))
}

function inferScalarType(values: ReadonlyArray<JsonValue | undefined>): DataType {
  const defined = values.filter((v) => v !== null && v !== undefined)
  if (defined.length > 0 && defined.every((v) => typeof v === 'boolean')) return new Bool()
  if (defined.length > 0 && defined.every((v) => typeof v === 'number' && Number.isInteger(v))) return new Int64()
  if (defined.length > 0 && defined.every((v) => typeof v === 'number')) return new Float64()
  return new Utf8()
}

function scalarFor(type: DataType, value: JsonValue | undefined): unknown {
  if (value === null || value === undefined) return null
  if (type.typeId === Type.Int) return BigInt(value as number)
  if (type.typeId === Type.Utf8 && typeof value !== 'string') return JSON.stringify(value)
  return value
}

/**
 * Strings up to this many UTF-8 bytes are interned by a read: a table's short values (titles, ids,
 * and above all the text-unit ids listed on every relationship) recur across rows, and one string per
 * distinct value instead of one per row keeps a dense graph's relationships table several times smaller.
 */
const INTERN_MAX_BYTES = 256

/** One string per distinct short value, shared by the columns and batches of one table read. */
export type StringInterner = Map<string, string>

/** Reads every value of a column as plain JS (numbers, strings, arrays, objects, null). */
export function readColumn(vector: Vector, interner?: StringInterner): unknown[] {
  const out: unknown[] = []
  for (const data of vector.data) readData(data, out, interner)
  return out
}

function readData(data: Data, out: unknown[], interner: StringInterner | undefined): void {
  for (let i = 0; i < data.length; i++) out.push(readValue(data, i, interner))
}

function intern(value: string, interner: StringInterner | undefined): string {
  if (interner === undefined) return value
  const known = interner.get(value)
  if (known !== undefined) return known
  interner.set(value, value)
  return value
}

function isValid(data: Data, i: number): boolean {
  if (data.typeId === Type.Null) return false
  if (data.nullCount === 0 || !data.nullBitmap || data.nullBitmap.length === 0) return true
  const bit = data.offset + i
  return (data.nullBitmap[bit >> 3]! & (1 << (bit & 7))) !== 0
}

function readValue(data: Data, i: number, interner?: StringInterner): unknown {
  if (!isValid(data, i)) return null
  const index = data.offset + i
  switch (data.typeId) {
    case Type.Utf8:
    case Type.LargeUtf8: {
      const offsets = data.valueOffsets as Int32Array | BigInt64Array
      const start = Number(offsets[index])
      const end = Number(offsets[index + 1])
      const text = utf8.decode(data.values.subarray(start, end))
      return end - start <= INTERN_MAX_BYTES ? intern(text, interner) : text
    }
    case Type.Int: {
      const v = (data.values as ArrayLike<number | bigint>)[index]
      return typeof v === 'bigint' ? Number(v) : v
    }
    case Type.Float:
      return (data.values as Float64Array | Float32Array)[index]
    case Type.Bool:
      return (data.values[index >> 3]! & (1 << (index & 7))) !== 0
    case Type.List: {
      const offsets = data.valueOffsets as Int32Array | BigInt64Array
      const start = Number(offsets[index])
      const end = Number(offsets[index + 1])
      const child = data.children[0]!
      const items: unknown[] = []
      for (let j = start; j < end; j++) items.push(readValue(child, j - child.offset, interner))
      return items
    }
    case Type.FixedSizeList: {
      const size = (data.type as unknown as { listSize: number }).listSize
      const child = data.children[0]!
      const items: unknown[] = []
      for (let j = index * size; j < (index + 1) * size; j++) items.push(readValue(child, j - child.offset))
      return items
    }
    case Type.Struct: {
      const fields = (data.type as Struct).children
      const obj: Record<string, unknown> = {}
      fields.forEach((field, k) => {
        // Struct children are sliced together with their parent, so the relative index carries over.
        obj[field.name] = readValue(data.children[k]!, i)
      })
      return obj
    }
    default:
      throw new TypeError(`unsupported Arrow type ${String(data.type)}`)
  }
}
