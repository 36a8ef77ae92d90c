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

/**
 * One Arrow buffer of a column, or any other run of the stream: `fill` writes its bytes from `from` on
 * (0 when not given) into `target`, as many as `target` holds, so a stream can be made a window at a time.
 */
interface Part {
  byteLength: number
  fill(target: Uint8Array, from?: number): void
}

/** One column's field nodes and buffers, in the order the Arrow IPC format lays them out. */
interface ColumnLayout {
  nodes: Array<[length: number, nullCount: number]>
  parts: Part[]
}

const copyOf = (bytes: Uint8Array): Part => ({
  byteLength: bytes.byteLength,
  fill: (target, from = 0) => target.set(bytes.subarray(from, from + target.byteLength)),
})

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
  // The bytes of the last value cut by a window's edge: a value longer than a window (a 200 MB document)
  // is cut by every window over it, and encoded once for all of them.
  let cut: { index: number; bytes: Uint8Array } | undefined
  const encodedCut = (index: number, value: string) => {
    if (cut?.index !== index) cut = { index, bytes: encoder.encode(value) }
    return cut.bytes
  }
  const data: Part = {
    byteLength: size,
    fill(target, from = 0) {
      const end = from + target.byteLength
      for (let i = firstEndingAfter(offsets, from); i < values.length && (offsets[i] as number) < end; i++) {
        const value = values[i]
        if (typeof value !== 'string') continue
        const start = offsets[i] as number
        const stop = offsets[i + 1] as number
        if (start >= from && stop <= end) encoder.encodeInto(value, target.subarray(start - from))
        else
          target.set(
            encodedCut(i, value).subarray(Math.max(from, start) - start, Math.min(end, stop) - start),
            Math.max(0, start - from),
          )
      }
    },
  }
  return [copyOf(new Uint8Array(offsets.buffer)), data]
}

/** The first index whose string ends after byte `from` (offsets[i + 1] > from), by bisection. */
function firstEndingAfter(offsets: Int32Array, from: number): number {
  let low = 0
  let high = offsets.length - 1
  while (low < high) {
    const middle = (low + high) >> 1
    if ((offsets[middle + 1] as number) > from) high = middle
    else low = middle + 1
  }
  return low
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
  const word = new DataView(new ArrayBuffer(8))
  const put = (view: DataView, at: number, value: number) =>
    kind === 'double' ? view.setFloat64(at, value, true) : view.setBigInt64(at, BigInt(Math.trunc(value)), true)
  const data: Part = {
    byteLength: values.length * 8,
    fill(target, from = 0) {
      const view = new DataView(target.buffer, target.byteOffset, target.byteLength)
      const end = from + target.byteLength
      for (let i = Math.floor(from / 8); i * 8 < end; i++) {
        const at = i * 8 - from
        if (at >= 0 && at + 8 <= target.byteLength) put(view, at, values[i] as number)
        else {
          // A value cut by the window's edge: written whole aside, and its bytes inside the window copied.
          put(word, 0, values[i] as number)
          const skip = Math.max(0, -at)
          target.set(new Uint8Array(word.buffer, skip, Math.min(8, end - i * 8) - skip), Math.max(0, at))
        }
      }
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

/** An Arrow IPC stream laid out before any of it is written: its size, and its runs of bytes in order. */
export interface ArrowStreamPlan {
  byteLength: number
  /** The stream's bytes `size` at a time (the last window shorter), each made when asked for. */
  windows(size: number): Generator<Uint8Array>
}

/**
 * The rows as an Arrow IPC stream of one record batch, each column's buffers written in place; undefined
 * when there are no rows or a column is of another kind (or holds other values), for arrow-columns.ts.
 */
export function arrowStreamByColumn<S extends TableSchema>(
  schema: S,
  rows: readonly RowOf<S>[],
): Uint8Array | undefined {
  const plan = arrowStreamPlan(schema, rows)
  return plan === undefined ? undefined : wholeStream(plan)
}

/** A plan's stream in one buffer: its only window when a window is as long as the stream. */
export function wholeStream(plan: ArrowStreamPlan): Uint8Array {
  const [whole] = plan.windows(plan.byteLength)
  return whole as Uint8Array
}

/**
 * arrowStreamByColumn's stream as a plan, so a writer can take it a window at a time and never hold it
 * whole (parquet-worker.ts copies each window into parquet-wasm's memory).
 */
export function arrowStreamPlan<S extends TableSchema>(
  schema: S,
  rows: readonly RowOf<S>[],
): ArrowStreamPlan | undefined {
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
  const metadata = Message.encode(Message.from(new RecordBatch(rows.length, nodes, regions), bodySize))
  const messageSize = pad8(8 + metadata.byteLength)
  // Schema message, record batch message (continuation marker, size, flatbuffer, padding), body, end of stream.
  const message = new Uint8Array(messageSize)
  const view = new DataView(message.buffer)
  view.setInt32(0, -1, true)
  view.setInt32(4, messageSize - 8, true)
  message.set(metadata, 8)
  const end = new Uint8Array(8)
  new DataView(end.buffer).setInt32(0, -1, true)
  return planOf([
    copyOf(schemaMessage(schema)),
    copyOf(message),
    ...layouts.flatMap((layout) => layout.parts),
    copyOf(end),
  ])
}

/** The plan of parts laid end to end, each starting at a multiple of 8 (the gaps are zeros). */
function planOf(parts: Part[]): ArrowStreamPlan {
  const starts: number[] = []
  let byteLength = 0
  for (const part of parts) {
    starts.push(byteLength)
    byteLength += pad8(part.byteLength)
  }
  function* windows(size: number): Generator<Uint8Array> {
    let first = 0
    for (let at = 0; at < byteLength; at += size) {
      const window = new Uint8Array(Math.min(size, byteLength - at))
      while (first < parts.length && (starts[first] as number) + (parts[first] as Part).byteLength <= at) first++
      for (let i = first; i < parts.length && (starts[i] as number) < at + window.byteLength; i++) {
        const part = parts[i] as Part
        const start = starts[i] as number
        const from = Math.max(0, at - start)
        const stop = Math.min(part.byteLength, at + window.byteLength - start)
        if (stop > from) part.fill(window.subarray(start + from - at, start + stop - at), from)
      }
      yield window
    }
  }
  return { byteLength, windows }
}
