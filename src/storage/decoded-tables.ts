/**
 * Rows of Parquet tables decoded earlier in the same run, kept so a table read again (an update reads
 * its entities and relationships, current and previous, in six workflows) is copied instead of
 * decoded. A table is known by its file's identity (device, inode, size, modification time in ns):
 * tables are replaced by rename, the staged file keeps its inode when committed, and an update's work
 * generation hard-links the files it did not rewrite, so one entry serves every path a file has
 * while a rewritten table is never mistaken for the old one. A read of fewer columns is served by an
 * entry holding them all. Every read returns new row objects and new lists, so callers may change what
 * they get. Entries are dropped least recently used first once their estimated size passes the bound.
 */
import { totalmem } from 'node:os'
import type { ColumnKind, RowOf, TableSchema } from '../model/schema.js'
import { normalise } from './table-rows.js'

/**
 * The default bound: at 100k entities the entities, relationships and communities of both generations
 * come to ~390 MB by this estimate (~38 MB at 20k), and the tables the update writes as much again. At
 * 384 MB the later readers of those tables (create_final_text_units, create_chunk_graph, the update_*
 * checks) decoded them again: 5–8 times their CPU at 1 GB, where the whole update peaked at 2.25 GB RSS
 * (docs/performance.md). Never more than a sixteenth of the machine's memory.
 */
const DECODED_TABLE_BYTES = Math.min(1024 * 2 ** 20, Math.floor(totalmem() / 16))

/** Kinds whose values hold objects (report findings, free-form row data): not kept, as a copy would share them. */
const UNCACHED_KINDS: ReadonlySet<ColumnKind> = new Set(['findings', 'json'])

interface Entry {
  identity: string
  columns: ReadonlyMap<string, string>
  rows: readonly Record<string, unknown>[]
  bytes: number
}

export class DecodedTableCache {
  /** In use order, least recent first. */
  private entries: Entry[] = []
  private held = 0

  constructor(readonly maxBytes: number = DECODED_TABLE_BYTES) {}

  /** The estimated bytes of the rows held. */
  get bytes(): number {
    return this.held
  }

  /** A copy of the rows of `schema`'s columns, when an entry of this file holds them all. */
  get<S extends TableSchema>(identity: string, schema: S): RowOf<S>[] | undefined {
    if (!cacheable(schema)) return undefined
    const wanted = columnKinds(schema)
    const entry = this.entries.find((e) => e.identity === identity && holds(e.columns, wanted))
    if (entry === undefined) return undefined
    this.entries = [...this.entries.filter((e) => e !== entry), entry]
    const names = schema.columns.map((col) => col.name)
    return entry.rows.map((row) => copyRow(row, names)) as RowOf<S>[]
  }

  /** Keeps a copy of rows just decoded (nothing when they alone pass the bound). */
  set<S extends TableSchema>(identity: string, schema: S, rows: readonly RowOf<S>[]): void {
    if (!cacheable(schema)) return
    const all = rows as readonly Record<string, unknown>[]
    const names = schema.columns.map((col) => col.name)
    this.keep(identity, schema, estimateBytes(all), () => all.map((row) => copyRow(row, names)))
  }

  /**
   * Keeps the rows a table was just written from, as a read of the written file would return them
   * (asDecoded), so the run's first read of a table it wrote is a copy too. Nothing is kept when a value
   * would not read back as its row holds it exactly (a string that is not well-formed UTF-16, a value
   * of another type than its column's).
   */
  setWritten<S extends TableSchema>(identity: string, schema: S, rows: readonly RowOf<S>[]): void {
    if (!cacheable(schema)) return
    // The rows as written take about the room of their decoded copy: none is made past the bound.
    if (estimateBytes(rows as readonly Record<string, unknown>[]) > this.maxBytes) return
    // asDecodedRows builds new rows and lists: kept as they are.
    const decoded = asDecodedRows(schema, rows as readonly Record<string, unknown>[])
    if (decoded !== undefined) this.keep(identity, schema, estimateBytes(decoded), () => decoded)
  }

  /** Adds an entry unless it alone passes the bound or one of this file holds its columns already. */
  private keep(identity: string, schema: TableSchema, bytes: number, rows: () => Record<string, unknown>[]): void {
    if (bytes > this.maxBytes) return
    const columns = columnKinds(schema)
    if (this.entries.some((e) => e.identity === identity && holds(e.columns, columns))) return
    // An entry this one covers is no longer needed.
    for (const e of this.entries.filter((e) => e.identity === identity && holds(columns, e.columns))) this.drop(e)
    this.entries.push({ identity, columns, rows: rows(), bytes })
    this.held += bytes
    while (this.held > this.maxBytes) this.drop(this.entries[0]!)
  }

  private drop(entry: Entry): void {
    this.entries = this.entries.filter((e) => e !== entry)
    this.held -= entry.bytes
  }
}

function cacheable(schema: TableSchema): boolean {
  return schema.columns.every((col) => !UNCACHED_KINDS.has(col.kind))
}

/** Each column's kind and nullability (a nullable column missing from the file reads as null, a required one fails). */
function columnKinds(schema: TableSchema): Map<string, string> {
  return new Map(schema.columns.map((col) => [col.name, `${col.kind}${col.nullable ? '?' : ''}`]))
}

/** Whether `columns` has every column of `wanted`, of the same kind and nullability. */
function holds(columns: ReadonlyMap<string, string>, wanted: ReadonlyMap<string, string>): boolean {
  return [...wanted].every(([name, kind]) => columns.get(name) === kind)
}

function copyRow(row: Record<string, unknown>, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const name of names) {
    const value = row[name]
    out[name] = Array.isArray(value) ? value.slice() : value
  }
  return out
}

/** A rough size of rows in V8's heap: object and list headers, 8 bytes a number, 2 a character. */
function estimateBytes(rows: readonly Record<string, unknown>[]): number {
  let bytes = 0
  for (const row of rows) {
    bytes += 64
    for (const value of Object.values(row)) bytes += valueBytes(value)
  }
  return bytes
}

function valueBytes(value: unknown): number {
  if (typeof value === 'string') return 16 + 2 * value.length
  if (Array.isArray(value)) return value.reduce((sum: number, item: unknown) => sum + valueBytes(item), 32)
  return 8
}

/** Marks a value a read would not give back as the row holds it. */
const NOT_READ_BACK = Symbol('not read back')

/** `rows` as a read of their Parquet file returns them, or undefined when one value would not read back equal. */
function asDecodedRows(
  schema: TableSchema,
  rows: readonly Record<string, unknown>[],
): Record<string, unknown>[] | undefined {
  const out: Record<string, unknown>[] = []
  for (const row of rows) {
    const decoded: Record<string, unknown> = {}
    for (const col of schema.columns) {
      const value = asDecoded(col.kind, row[col.name])
      if (value === NOT_READ_BACK) return undefined
      decoded[col.name] = value
    }
    out.push(decoded)
  }
  return out
}

/**
 * What reading a written value gives (arrow-columns.ts writes and reads, table-rows.ts normalise): null
 * for an absent scalar, [] for an absent list, int64 values truncated to integers (never -0).
 */
function asDecoded(kind: ColumnKind, value: unknown): unknown {
  // An absent value reads as null, normalised as the readers do (an absent list reads as []).
  if (value === null || value === undefined) return normalise(kind, null)
  if (!kind.startsWith('list')) return asDecodedScalar(kind, value)
  if (!Array.isArray(value)) return NOT_READ_BACK
  const item = kind.slice('list<'.length, -1) as ColumnKind
  const items: unknown[] = []
  for (const v of value) {
    const decoded = v === null || v === undefined ? null : asDecodedScalar(item, v)
    if (decoded === NOT_READ_BACK) return NOT_READ_BACK
    items.push(decoded)
  }
  return items
}

function asDecodedScalar(kind: ColumnKind, value: unknown): unknown {
  switch (kind) {
    case 'string':
      // A lone surrogate is written as U+FFFD.
      return typeof value === 'string' && wellFormed(value) ? value : NOT_READ_BACK
    case 'int64':
      if (typeof value !== 'number' || !Number.isFinite(value) || Math.abs(value) > Number.MAX_SAFE_INTEGER)
        return NOT_READ_BACK
      return Math.trunc(value) + 0
    case 'double':
      return typeof value === 'number' ? value : NOT_READ_BACK
    default:
      return NOT_READ_BACK
  }
}

/** String.prototype.isWellFormed (Node 20; TypeScript declares it from ES2024 on): no lone surrogate. */
function wellFormed(text: string): boolean {
  return (text as unknown as { isWellFormed(): boolean }).isWellFormed()
}
