/**
 * A table's Arrow IPC stream written a column at a time straight into the stream's buffer, for tables
 * of string, list-of-string, double and int64 columns (every big table: relationships, entities, text
 * units). Building Arrow vectors and then serialising them held both at once: ~400 MB for a row group
 * of a noun graph's relationships. The bytes are apache-arrow's own (tableToIPC of the vectors that
 * arrow-columns.ts builds; test/storage/arrow-stream.test.ts compares them), so the Parquet is too.
 */
import { createRequire } from 'node:module'
import type * as MessageTypes from 'apache-arrow/ipc/metadata/message'
import type { ColumnKind, RowOf, TableSchema } from '../model/schema.js'
import { Table, tableToIPC } from './arrow.js'
import { buildVector, utf8Offsets } from './arrow-columns.js'

const { BufferRegion, FieldNode, Message, RecordBatch } = createRequire(import.meta.url)(
  'apache-arrow/ipc/metadata/message',
) as typeof MessageTypes

const encoder = new TextEncoder()
const pad8 = (size: number) => (size + 7) & ~7

/** One Arrow buffer of a column: its bytes are written by `fill` at the offset given. */
interface Part {
  byteLength: number
  fill(target: Uint8Array): void
}

/** One column's field nodes and buffers, in the order the Arrow IPC format lays them out. */
interface ColumnLayout {
  nodes: Array<[length: number, nullCount: number]>
  parts: Part[]
}

const copyOf = (bytes: Uint8Array): Part => ({ byteLength: bytes.byteLength, fill: (target) => target.set(bytes) })

/** Validity bits (one per value, padded to 64), or none when nothing is null. */
function validity(present: (i: number) => boolean, length: number): { bits: Uint8Array; nulls: number } {
  const bits = new Uint8Array(Math.ceil(length / 64) * 8)
  let nulls = 0
  for (let i = 0; i < length; i++)
    if (present(i)) bits[i >> 3] = (bits[i >> 3] as number) | (1 << (i & 7))
    else nulls++
  return { bits: nulls === 0 ? new Uint8Array(0) : bits, nulls }
}

/** Offsets of strings (UTF-8 bytes) and a part that encodes them in place. */
function stringParts(values: ReadonlyArray<string | null | undefined>): Part[] {
  const { offsets, size } = utf8Offsets(values)
  const data: Part = {
    byteLength: size,
    fill(target) {
      for (let i = 0; i < values.length; i++) {
        const value = values[i]
        if (typeof value === 'string') encoder.encodeInto(value, target.subarray(offsets[i]))
      }
    },
  }
  return [copyOf(new Uint8Array(offsets.buffer)), data]
}

function stringLayout(values: ReadonlyArray<string | null | undefined>): ColumnLayout {
  const { bits, nulls } = validity((i) => typeof values[i] === 'string', values.length)
  return { nodes: [[values.length, nulls]], parts: [copyOf(bits), ...stringParts(values)] }
}

function stringListLayout(lists: ReadonlyArray<readonly string[] | null | undefined>): ColumnLayout {
  const { bits, nulls } = validity((i) => lists[i] != null, lists.length)
  const offsets = new Int32Array(lists.length + 1)
  let count = 0
  for (let i = 0; i < lists.length; i++) offsets[i + 1] = count += lists[i]?.length ?? 0
  const items = new Array<string>(count)
  for (let i = 0, at = 0; i < lists.length; i++) for (const item of lists[i] ?? []) items[at++] = item
  const listParts = [copyOf(bits), copyOf(new Uint8Array(offsets.buffer))]
  return {
    nodes: [
      [lists.length, nulls],
      [count, 0],
    ],
    parts: [...listParts, copyOf(new Uint8Array(0)), ...stringParts(items)],
  }
}

function numberLayout(values: readonly number[], kind: 'double' | 'int64'): ColumnLayout {
  const data: Part = {
    byteLength: values.length * 8,
    fill(target) {
      const view = new DataView(target.buffer, target.byteOffset, values.length * 8)
      for (let i = 0; i < values.length; i++)
        if (kind === 'double') view.setFloat64(i * 8, values[i] as number, true)
        else view.setBigInt64(i * 8, BigInt(Math.trunc(values[i] as number)), true)
    },
  }
  return { nodes: [[values.length, 0]], parts: [copyOf(new Uint8Array(0)), data] }
}

/** Whether `value` is one this module writes for a column of `kind` (else arrow-columns.ts builds the table). */
function fits(kind: ColumnKind, value: unknown): boolean {
  switch (kind) {
    case 'string':
      return typeof value === 'string' || value === null || value === undefined
    case 'list<string>':
      return value == null || (Array.isArray(value) && value.every((item) => typeof item === 'string'))
    case 'double':
    case 'int64':
      return typeof value === 'number'
    default:
      return false
  }
}

function layoutOf(kind: ColumnKind, values: unknown[]): ColumnLayout {
  if (kind === 'string') return stringLayout(values as string[])
  if (kind === 'list<string>') return stringListLayout(values as string[][])
  return numberLayout(values as number[], kind as 'double' | 'int64')
}

/** The schema message apache-arrow writes for these columns (the head of its stream of an empty table). */
function schemaMessage(schema: TableSchema): Uint8Array {
  const columns = Object.fromEntries(schema.columns.map((col) => [col.name, buildVector(col.kind, [])]))
  const empty = tableToIPC(new Table(columns), 'stream')
  const metadataSize = new DataView(empty.buffer, empty.byteOffset).getInt32(4, true)
  return empty.slice(0, 8 + metadataSize)
}

/**
 * The rows as an Arrow IPC stream of one record batch, each column's buffers written in place; undefined
 * when there are no rows or a column is of another kind (or holds other values), for arrow-columns.ts.
 */
export function arrowStreamByColumn<S extends TableSchema>(
  schema: S,
  rows: readonly RowOf<S>[],
): Uint8Array | undefined {
  const cells = rows as readonly Record<string, unknown>[]
  // Checked before anything is allocated: a table left to the vector builders costs nothing more here.
  if (rows.length === 0 || !schema.columns.every((col) => cells.every((row) => fits(col.kind, row[col.name]))))
    return undefined
  const layouts = schema.columns.map((col) =>
    layoutOf(
      col.kind,
      cells.map((row) => row[col.name]),
    ),
  )
  const nodes: MessageTypes.FieldNode[] = []
  const regions: MessageTypes.BufferRegion[] = []
  let bodySize = 0
  for (const layout of layouts) {
    for (const [length, nullCount] of layout.nodes) nodes.push(new FieldNode(length, nullCount))
    for (const part of layout.parts) {
      regions.push(new BufferRegion(bodySize, pad8(part.byteLength)))
      bodySize += pad8(part.byteLength)
    }
  }
  const head = schemaMessage(schema)
  const metadata = Message.encode(Message.from(new RecordBatch(rows.length, nodes, regions), bodySize))
  const messageSize = pad8(8 + metadata.byteLength)
  // Schema message, record batch message (continuation marker, size, flatbuffer, padding), body, end of stream.
  const out = new Uint8Array(head.byteLength + messageSize + bodySize + 8)
  const view = new DataView(out.buffer)
  out.set(head)
  let at = head.byteLength
  view.setInt32(at, -1, true)
  view.setInt32(at + 4, messageSize - 8, true)
  out.set(metadata, at + 8)
  at += messageSize
  for (const layout of layouts)
    for (const part of layout.parts) {
      part.fill(out.subarray(at, at + part.byteLength))
      at += pad8(part.byteLength)
    }
  view.setInt32(at, -1, true)
  return out
}
