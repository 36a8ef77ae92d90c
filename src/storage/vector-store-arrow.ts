/**
 * The Arrow side of the LanceDB vector tables (vector-store.ts): Python GraphRAG's schema, a batch of
 * rows as an Arrow table, and the columns of a batch LanceDB hands back read whole. Rows are built
 * into their buffers directly: the fourteen date columns hold one value (or null) on every row, and
 * apache-arrow's builders encoded that value again for each row (most of the CPU of writing a table
 * of 100,000 small vectors). Same values and validity as the builders make.
 */
import {
  Field,
  FixedSizeList,
  Float32,
  Int64,
  RecordBatch,
  Schema,
  Struct,
  Table as ArrowTable,
  Type,
  Utf8,
  makeData,
  type Data,
  type DataType,
  type Vector,
} from './arrow.js'
import { buildVector, readColumn } from './arrow-columns.js'

export interface VectorRow {
  id: string
  vector: ArrayLike<number>
}

const DATE_PARTS = ['year', 'month', 'month_name', 'day', 'day_of_week', 'hour', 'quarter'] as const
const STRING_PARTS: ReadonlySet<string> = new Set(['month_name', 'day_of_week'])

/** Python GraphRAG's LanceDB schema for a vector dimension. */
export function vectorTableSchema(dim: number): Schema {
  const dateFields = (prefix: string): Field[] =>
    DATE_PARTS.map((p) => new Field(`${prefix}_${p}`, STRING_PARTS.has(p) ? new Utf8() : new Int64(), true))
  return new Schema([
    new Field('id', new Utf8(), true),
    new Field('vector', new FixedSizeList(dim, new Field('item', new Float32(), true)), true),
    new Field('create_date', new Utf8(), true),
    new Field('update_date', new Utf8(), true),
    ...dateFields('create_date'),
    ...dateFields('update_date'),
  ])
}

const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]
const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday']

/** `datetime.isoformat()` of a UTC instant: microseconds when non-zero, `+00:00` offset. */
function isoformatUtc(date: Date): string {
  const base = date.toISOString().slice(0, 19)
  const ms = date.getUTCMilliseconds()
  return `${base}${ms === 0 ? '' : `.${String(ms).padStart(3, '0')}000`}+00:00`
}

function explodeDate(date: Date): Record<(typeof DATE_PARTS)[number], string | bigint> {
  const month = date.getUTCMonth()
  return {
    year: BigInt(date.getUTCFullYear()),
    month: BigInt(month + 1),
    month_name: MONTHS[month]!,
    day: BigInt(date.getUTCDate()),
    day_of_week: WEEKDAYS[date.getUTCDay()]!,
    hour: BigInt(date.getUTCHours()),
    quarter: BigInt(Math.floor(month / 3) + 1),
  }
}

/** A column of `n` rows all holding `value` (null: every row null), for a string or int64 field. */
export function constantColumn(type: DataType, n: number, value: string | bigint | null): Data {
  const isString = type.typeId === Type.Utf8
  if (value === null) {
    // Every validity bit 0; offsets (all 0) or values (0n) are there only for the layout.
    const nullBitmap = new Uint8Array(Math.ceil(n / 8))
    return isString
      ? makeData({
          type: type as Utf8,
          length: n,
          nullCount: n,
          nullBitmap,
          valueOffsets: new Int32Array(n + 1),
          data: new Uint8Array(0),
        })
      : makeData({ type: type as Int64, length: n, nullCount: n, nullBitmap, data: new BigInt64Array(n) })
  }
  if (!isString)
    return makeData({ type: type as Int64, length: n, nullCount: 0, data: new BigInt64Array(n).fill(BigInt(value)) })
  const bytes = new TextEncoder().encode(String(value))
  const data = new Uint8Array(n * bytes.length)
  const valueOffsets = new Int32Array(n + 1)
  for (let i = 0; i < n; i++) {
    data.set(bytes, i * bytes.length)
    valueOffsets[i + 1] = (i + 1) * bytes.length
  }
  return makeData({ type: type as Utf8, length: n, nullCount: 0, valueOffsets, data })
}

/** The rows as one record batch of the schema: ids, float32 vectors, the creation date and no update date. */
export function buildVectorTable(
  schema: Schema,
  rows: readonly VectorRow[],
  dim: number,
  createDate: Date,
): ArrowTable {
  const n = rows.length
  const values = new Float32Array(n * dim)
  rows.forEach((row, i) => values.set(row.vector, i * dim))
  const vectorType = schema.fields[1]!.type as FixedSizeList
  const vector = makeData({
    type: vectorType,
    length: n,
    nullCount: 0,
    child: makeData({ type: new Float32(), length: n * dim, nullCount: 0, data: values }),
  })
  const created = explodeDate(createDate)
  const columns: Data[] = schema.fields.map((field, i) => {
    if (i === 0)
      return buildVector(
        'string',
        rows.map((r) => r.id),
      ).data[0]!
    if (i === 1) return vector
    if (field.name === 'create_date') return constantColumn(field.type, n, isoformatUtc(createDate))
    const part = field.name.startsWith('create_date_') ? field.name.slice('create_date_'.length) : undefined
    return constantColumn(field.type, n, part === undefined ? null : created[part as (typeof DATE_PARTS)[number]]!)
  })
  const struct = makeData({ type: new Struct(schema.fields), length: n, nullCount: 0, children: columns })
  return new ArrowTable([new RecordBatch(schema, struct)])
}

/** A batch's ids as strings (a null id reads "null", as String() of it always did). */
export function batchIds(ids: Vector | null): string[] {
  return ids === null ? [] : readColumn(ids).map((id) => String(id))
}

/**
 * Each row's vector of a batch's vector column, copied out of it (a view would keep the whole batch
 * alive): straight from the child's float32 values for a fixed-size list, row by row otherwise.
 */
export function batchVectors(vectors: Vector | null, rows: number): Float32Array[] {
  const out: Float32Array[] = []
  for (const data of vectors?.data ?? []) {
    const child = data.children[0]
    const size = (data.type as { listSize?: number }).listSize
    if (data.typeId !== Type.FixedSizeList || child?.typeId !== Type.Float || size === undefined) {
      for (let i = 0; i < data.length; i++) out.push(Float32Array.from(vectors?.get(out.length)?.toArray() ?? []))
      continue
    }
    const values = child.values as Float32Array | Float64Array
    for (let i = 0; i < data.length; i++) {
      const valid = data.nullCount === 0 || vectors?.isValid(out.length) !== false
      // slice() copies float32 as memory; Float32Array.from would walk the values one by one.
      const own =
        values instanceof Float32Array
          ? values.slice(i * size, (i + 1) * size)
          : Float32Array.from(values.subarray(i * size, (i + 1) * size))
      out.push(valid ? own : new Float32Array(0))
    }
  }
  while (out.length < rows) out.push(new Float32Array(0))
  return out
}
