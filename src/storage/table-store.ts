/**
 * Table stores: where workflows read and write whole tables. The Parquet store writes to a
 * temporary file and renames, so a crash never leaves a half-written or missing table.
 */
import { createHash } from 'node:crypto'
import { open, readdir, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { StorageError } from '../errors.js'
import type { RowOf, TableSchema } from '../model/schema.js'
import type { DecodedTableCache } from './decoded-tables.js'
import { ColumnCollector, type ColumnSink, type TableColumns } from './table-columns.js'
import { fileIdentity } from './file-identity.js'
import { isAbsent, storageFailure, unlessAbsent } from './fs-errors.js'
import { remoteName } from './object/remote.js'

/** What to read of a table beyond its declared columns. */
export interface ReadOptions {
  /**
   * Only the rows whose index (their position in the stored table, from 0) passes: the others are
   * dropped batch by batch as they are decoded, so the whole table is never held as rows.
   */
  readonly rows?: (index: number) => boolean
  /**
   * Instead of rows: the decoded table goes to this sink batch by batch (table-columns.ts; readColumns
   * below), after `rows` picks, and read returns no rows. The run's decoded rows are not used or kept.
   */
  readonly columns?: ColumnSink
}

/**
 * Rows to write, as an array or made when sliced: a writer asks for one row group at a time, so a
 * table kept as columns (the noun graph's pairs) never exists as rows all at once.
 */
export interface RowSource<R> {
  readonly length: number
  slice(start?: number, end?: number): R[]
}

export interface TableStore {
  /** Reads a table; throws StorageError naming the file when it is missing or malformed. */
  read<S extends TableSchema>(schema: S, options?: ReadOptions): Promise<RowOf<S>[]>
  write<S extends TableSchema>(schema: S, rows: RowSource<RowOf<S>>): Promise<void>
  has(name: string): Promise<boolean>
  delete(name: string): Promise<void>
  /** Names of the tables present. */
  names(): Promise<string[]>
  /** A content hash of the stored table (undefined when absent), for resume fingerprints. */
  fingerprint(name: string): Promise<string | undefined>
  /** Where the store lives, for messages (a folder, or `memory`). */
  readonly location: string
}

/**
 * Which Parquet reader a store uses: parquet-wasm (`wasm`, what indexing uses; it reads a few megabytes
 * of rows at a time) or plain JavaScript (`js`, for queries, which start ~0.3 s sooner without
 * parquet-wasm; tables with free-form `json` columns are still read with parquet-wasm). Writing always
 * goes through parquet-wasm. Each is loaded on first use.
 */
export type ParquetReader = 'wasm' | 'js'

async function readable(file: string): Promise<void> {
  const handle = await open(file, 'r')
  try {
    await handle.read(Buffer.alloc(1), 0, 1, 0)
  } finally {
    await handle.close()
  }
}

export class ParquetTableStore implements TableStore {
  constructor(
    readonly location: string,
    private readonly reader: ParquetReader = 'wasm',
    /** Rows decoded earlier in the run (decoded-tables.ts), shared by the stores of one run. */
    readonly decoded?: DecodedTableCache,
  ) {}

  path(name: string): string {
    return join(this.location, `${name}.parquet`)
  }

  async read<S extends TableSchema>(schema: S, options: ReadOptions = {}): Promise<RowOf<S>[]> {
    const file = this.path(schema.name)
    const js = this.reader === 'js' ? await import('./parquet-js.js') : undefined
    let bytes: Uint8Array | undefined
    try {
      // The JS reader takes the whole file. parquet-wasm's reads it piece by piece
      // (decodeParquetInBatches): one byte read here first gives the reason it cannot be (absent, a
      // folder, no access) as the error code that names it.
      if (js?.readsWithJs(schema)) bytes = await readFile(file)
      else await readable(file)
    } catch (cause) {
      if (!isAbsent(cause)) throw storageFailure(cause, `read table ${schema.name} from`, file)
      throw new StorageError(
        `table ${schema.name} not found: ${remoteName(file)} (run the workflow that writes it first)`,
        {
          path: file,
          cause,
        },
      )
    }
    if (js !== undefined && bytes !== undefined)
      return toSink(
        onlyRows(await js.decodeParquetJs(schema, bytes, remoteName(file)), options.rows),
        options.columns,
        remoteName(file),
      )
    if (this.decoded !== undefined && options.rows === undefined && options.columns === undefined)
      return this.readKept(schema, file, this.decoded)
    return (await import('./parquet.js')).decodeParquetInBatches(schema, { path: file }, remoteName(file), {
      rows: options.rows,
      columns: options.columns,
    })
  }

  /** A whole-table read through the run's decoded rows: copied when kept, else decoded and kept. */
  private async readKept<S extends TableSchema>(
    schema: S,
    file: string,
    decoded: DecodedTableCache,
  ): Promise<RowOf<S>[]> {
    const identity = await fileIdentity(file)
    const kept = identity === undefined ? undefined : decoded.get(identity, schema)
    if (kept !== undefined) return kept
    const rows = await (await import('./parquet.js')).decodeParquetInBatches(schema, { path: file }, remoteName(file))
    if (identity !== undefined) decoded.set(identity, schema, rows)
    return rows
  }

  async write<S extends TableSchema>(schema: S, rows: RowSource<RowOf<S>>): Promise<void> {
    await (await import('./parquet.js')).writeParquetReleasing(schema, rows, this.path(schema.name))
    // A row source made a piece at a time (the fast method's noun graph) is not kept: it has no rows to copy.
    if (this.decoded !== undefined && Array.isArray(rows)) await this.keepWritten(schema, rows, this.decoded)
  }

  /** An update's later reads of a table it wrote are copies of the rows written (decoded-tables.ts). */
  private async keepWritten<S extends TableSchema>(
    schema: S,
    rows: readonly RowOf<S>[],
    decoded: DecodedTableCache,
  ): Promise<void> {
    const identity = await fileIdentity(this.path(schema.name))
    if (identity !== undefined) decoded.setWritten(identity, schema, rows)
  }

  async has(name: string): Promise<boolean> {
    const file = this.path(name)
    return unlessAbsent(file, 'check table', async () => (await stat(file)).isFile(), false)
  }

  async delete(name: string): Promise<void> {
    await rm(this.path(name), { force: true })
  }

  async names(): Promise<string[]> {
    // Files only, as `has` counts them: a folder named like a table is not one (writing it will fail and say so).
    const entries = await unlessAbsent(
      this.location,
      'list tables in',
      () => readdir(this.location, { withFileTypes: true }),
      [],
    )
    const files = entries
      .filter((e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith('.parquet'))
      .map((e) => e.name)
    return files.map((f) => f.slice(0, -'.parquet'.length)).sort()
  }

  async fingerprint(name: string): Promise<string | undefined> {
    const file = this.path(name)
    return unlessAbsent(
      file,
      'read table',
      async () =>
        createHash('sha256')
          .update(await readFile(file))
          .digest('hex'),
      undefined,
    )
  }
}

/** In-memory store for tests and library use; rows are copied in and out so callers cannot alias them. */
export class MemoryTableStore implements TableStore {
  readonly location = 'memory'
  private readonly tables = new Map<string, unknown[]>()

  async read<S extends TableSchema>(schema: S, options: ReadOptions = {}): Promise<RowOf<S>[]> {
    const rows = this.tables.get(schema.name)
    if (rows === undefined) throw new StorageError(`table ${schema.name} not found in memory store`)
    if (options.columns !== undefined)
      return toSink(onlyRows(rows as RowOf<S>[], options.rows), options.columns, `memory (${schema.name})`)
    return structuredClone(onlyRows(rows, options.rows)) as RowOf<S>[]
  }

  async write<S extends TableSchema>(schema: S, rows: RowSource<RowOf<S>>): Promise<void> {
    const projected = rows.slice().map((row) => {
      const out: Record<string, unknown> = {}
      for (const col of schema.columns) out[col.name] = (row as Record<string, unknown>)[col.name] ?? null
      return out
    })
    this.tables.set(schema.name, structuredClone(projected))
  }

  async has(name: string): Promise<boolean> {
    return this.tables.has(name)
  }

  async delete(name: string): Promise<void> {
    this.tables.delete(name)
  }

  async names(): Promise<string[]> {
    return [...this.tables.keys()].sort()
  }

  async fingerprint(name: string): Promise<string | undefined> {
    const rows = this.tables.get(name)
    return rows === undefined ? undefined : createHash('sha256').update(JSON.stringify(rows)).digest('hex')
  }
}

/** The rows `keep` accepts by index (all of them without it). */
function onlyRows<R>(rows: R[], keep: ReadOptions['rows']): R[] {
  return keep === undefined ? rows : rows.filter((_, i) => keep(i))
}

/** Rows handed to a column sink when there is one (read then returns none), else returned. */
function toSink<R>(rows: R[], sink: ColumnSink | undefined, file: string): R[] {
  if (sink === undefined) return rows
  sink.expect(rows.length, file)
  sink.rows(rows as Record<string, unknown>[])
  return []
}

/**
 * A table's columns as codes and typed arrays (table-columns.ts), from any store: string, list of
 * string, double and int64 columns only. `rows` picks rows by index as in ReadOptions; `count`, when
 * known, is how many it picks.
 */
export async function readColumns<S extends TableSchema>(
  store: TableStore,
  schema: S,
  { rows, count }: { rows?: ReadOptions['rows']; count?: number } = {},
): Promise<TableColumns> {
  const collector = new ColumnCollector(schema, count)
  const returned = await store.read(schema, { rows, columns: collector })
  // A store that does not know the option (a test's wrapper) returned rows instead.
  if (returned.length > 0) toSink(returned, collector, `${store.location} (${schema.name})`)
  return collector.finish()
}
