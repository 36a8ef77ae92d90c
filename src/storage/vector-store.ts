/**
 * LanceDB vector store with Python GraphRAG's table layout (id, vector as fixed-size float32
 * list, create/update dates and their exploded fields), so Microsoft GraphRAG's query reads our
 * tables and we read theirs. Tables are replaced whole (an overwrite is one atomic Lance commit),
 * so a rerun never duplicates rows. Search uses cosine distance; score = 1 - |distance|.
 */
import type * as lancedb from '@lancedb/lancedb'
import { DataType } from './arrow.js'
import { StorageError } from '../errors.js'
import { lanceOptionsFor } from './object/remote.js'
import { batchIds, batchVectors, buildVectorTable, vectorTableSchema, type VectorRow } from './vector-store-arrow.js'

export type { VectorRow }

export interface VectorHit {
  id: string
  /** Cosine distance (0 = same direction). */
  distance: number
  /** 1 - |distance|, as GraphRAG scores LanceDB hits. */
  score: number
}

export interface VectorStore {
  tableNames(): Promise<string[]>
  hasTable(name: string): Promise<boolean>
  /** Row count and vector dimension of a table (dimension null when it has no fixed-size vector column). */
  describe(name: string): Promise<{ rows: number; dimension: number | null }>
  /** The k nearest rows by cosine distance, nearest first (ties by id). */
  search(name: string, vector: ArrayLike<number>, k: number): Promise<VectorHit[]>
  /** Vectors of the given ids (all rows when omitted); unknown ids are absent from the map. */
  /** Stored vectors by id (unknown ids are absent), as float32 as stored: half the memory of number arrays. */
  vectorsById(name: string, ids?: readonly string[]): Promise<Map<string, Float32Array>>
  /** Every row's id, in no particular order (without reading the vectors). */
  ids(name: string): Promise<string[]>
  /**
   * Replaces the table with `rows` in one commit. `vectorSize` fixes the dimension (required for an
   * empty table); a row of another dimension fails with both numbers before anything is written.
   */
  replaceTable(
    name: string,
    rows: readonly VectorRow[],
    createDate: Date,
    options?: { vectorSize?: number },
  ): Promise<void>
  /**
   * Replaces the table with rows handed over in batches, in order, so a large table never sits in
   * memory whole: the first batch overwrites the table, the others are appended (one commit each;
   * the index is built by a run in its work generation, so nobody reads the table half-written).
   */
  writeTable(name: string, createDate: Date, options?: { vectorSize?: number }): VectorTableWriter
  close(): void
}

interface VectorTableWriter {
  /** Checks the batch's dimensions, then writes it. Calls must not overlap. */
  add(rows: readonly VectorRow[]): Promise<void>
  /** Creates the table if no row came, builds the index on a large one; returns the row count. */
  finish(): Promise<number>
}

/**
 * Tables at least this large get an IVF_FLAT index; smaller ones are searched exactly. (Python builds
 * its index on the one-row dummy table and appends afterwards, so its rows stay unindexed and its
 * searches are exact too; brute force costs ~8 ms per 1,000 rows of 1536 floats.)
 */
const INDEX_MIN_ROWS = 50_000
const ID_CHUNK = 256

/**
 * Loads LanceDB lazily: its Rust logger reads LANCEDB_LOG once at load and would otherwise print a
 * WARN on stderr for every table it creates. Users can still set LANCEDB_LOG themselves.
 */
export async function loadLanceDb(): Promise<typeof lancedb> {
  process.env.LANCEDB_LOG ??= 'error'
  return import('@lancedb/lancedb')
}

/** `storageOptions`: LanceDB's connection options for a remote db_uri (default: those its settings registered). */
export async function openVectorStore(
  dbUri: string,
  storageOptions: Record<string, string> | undefined = lanceOptionsFor(dbUri),
): Promise<VectorStore> {
  const lance = await loadLanceDb()
  let db: lancedb.Connection
  try {
    db = await lance.connect(dbUri, storageOptions === undefined ? {} : { storageOptions })
  } catch (cause) {
    throw new StorageError(`cannot open LanceDB at ${dbUri}`, { path: dbUri, cause })
  }
  const open = async (name: string): Promise<lancedb.Table> => {
    try {
      return await db.openTable(name)
    } catch (cause) {
      throw new StorageError(`LanceDB table ${name} not found in ${dbUri}`, { path: dbUri, cause })
    }
  }
  return {
    tableNames: () => db.tableNames(),
    hasTable: async (name) => (await db.tableNames()).includes(name),
    async describe(name) {
      const table = await open(name)
      const type = (await table.schema()).fields.find((f) => f.name === 'vector')?.type
      const dimension = type !== undefined && DataType.isFixedSizeList(type) ? type.listSize : null
      return { rows: await table.countRows(), dimension }
    },
    async search(name, vector, k) {
      const table = await open(name)
      await checkQueryDimension(table, name, vector.length)
      const rows = await table
        .vectorSearch(Array.from(vector))
        .distanceType('cosine')
        .select(['id', '_distance'])
        .limit(k)
        .toArray()
      return rows
        .map((r: { id: string; _distance: number }) => ({
          id: String(r.id),
          distance: r._distance,
          score: 1 - Math.abs(r._distance),
        }))
        .sort((a, b) => a.distance - b.distance || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    },
    async vectorsById(name, ids) {
      const table = await open(name)
      const filters = ids === undefined ? [undefined] : chunk(ids, ID_CHUNK).map(inFilter)
      const out = new Map<string, Float32Array>()
      for (const where of filters) {
        let query = table.query().select(['id', 'vector'])
        if (where !== undefined) query = query.where(where)
        // Batch by batch, each vector copied out of the batch: the whole table is never held twice.
        for await (const batch of query) {
          const vectors = batchVectors(batch.getChild('vector'), batch.numRows)
          batchIds(batch.getChild('id')).forEach((id, i) => out.set(id, vectors[i]!))
        }
      }
      return out
    },
    async ids(name) {
      const table = await open(name)
      const out: string[] = []
      for await (const batch of table.query().select(['id']))
        for (const id of batchIds(batch.getChild('id'))) out.push(id)
      return out
    },
    async replaceTable(name, rows, createDate, options = {}) {
      const writer = tableWriter({ db, lance, dbUri }, name, createDate, options)
      await writer.add(rows)
      await writer.finish()
    },
    writeTable: (name, createDate, options = {}) => tableWriter({ db, lance, dbUri }, name, createDate, options),
    close: () => db.close(),
  }
}

function tableWriter(
  at: { db: lancedb.Connection; lance: typeof lancedb; dbUri: string },
  name: string,
  createDate: Date,
  options: { vectorSize?: number },
): VectorTableWriter {
  let table: lancedb.Table | undefined
  let dim = options.vectorSize
  let rows = 0
  const failed = (cause: unknown) =>
    cause instanceof StorageError
      ? cause
      : new StorageError(`cannot write LanceDB table ${name} in ${at.dbUri}`, { path: at.dbUri, cause })
  return {
    async add(batch) {
      if (batch.length === 0) return
      dim = vectorDimension(name, batch, dim)
      const data = buildVectorTable(vectorTableSchema(dim), batch, dim, createDate)
      try {
        if (table === undefined) table = await at.db.createTable(name, data, { mode: 'overwrite' })
        else await table.add(data)
      } catch (cause) {
        throw failed(cause)
      }
      rows += batch.length
    },
    async finish() {
      try {
        const schema = vectorTableSchema(vectorDimension(name, [], dim))
        table ??= await at.db.createEmptyTable(name, schema, { mode: 'overwrite' })
        if (rows >= INDEX_MIN_ROWS) {
          const numPartitions = Math.ceil(Math.sqrt(rows))
          await table.createIndex('vector', {
            config: at.lance.Index.ivfFlat({ distanceType: 'cosine', numPartitions }),
          })
        }
        table.close()
      } catch (cause) {
        throw failed(cause)
      }
      return rows
    },
  }
}

function chunk<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = []
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size))
  return out
}

function inFilter(ids: readonly string[]): string {
  return `id IN (${ids.map((id) => `'${id.replaceAll("'", "''")}'`).join(', ')})`
}

async function checkQueryDimension(table: lancedb.Table, name: string, got: number): Promise<void> {
  const field = (await table.schema()).fields.find((f) => f.name === 'vector')
  // LanceDB hands back types from its own (CommonJS) copy of apache-arrow: compare by type id.
  const type = field?.type
  if (type !== undefined && DataType.isFixedSizeList(type) && type.listSize !== got) {
    throw new StorageError(`query vector has dimension ${got} but table ${name} stores dimension ${type.listSize}`)
  }
}

function vectorDimension(name: string, rows: readonly VectorRow[], vectorSize: number | undefined): number {
  const dim = vectorSize ?? rows[0]?.vector.length
  if (dim === undefined || dim <= 0) {
    throw new StorageError(`cannot create LanceDB table ${name}: no rows and no vector size`)
  }
  for (const row of rows) {
    if (row.vector.length !== dim) {
      throw new StorageError(
        `vector for id ${row.id} in table ${name} has dimension ${row.vector.length}, expected ${dim}`,
      )
    }
  }
  return dim
}
