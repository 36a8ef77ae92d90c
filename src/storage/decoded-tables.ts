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

/**
 * The default bound: at 100k entities the entities, relationships and communities of both generations
 * come to ~390 MB by this estimate (~38 MB at 20k), so most of them fit; never more than a sixteenth of
 * the machine's memory.
 */
const DECODED_TABLE_BYTES = Math.min(384 * 2 ** 20, Math.floor(totalmem() / 16))

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
    const bytes = estimateBytes(rows as readonly Record<string, unknown>[])
    if (bytes > this.maxBytes) return
    const columns = columnKinds(schema)
    if (this.entries.some((e) => e.identity === identity && holds(e.columns, columns))) return
    const names = [...columns.keys()]
    // An entry this one covers is no longer needed.
    for (const e of this.entries.filter((e) => e.identity === identity && holds(columns, e.columns))) this.drop(e)
    const kept = (rows as readonly Record<string, unknown>[]).map((row) => copyRow(row, names))
    this.entries.push({ identity, columns, rows: kept, bytes })
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
