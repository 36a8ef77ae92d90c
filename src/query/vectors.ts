/**
 * The vector-store view search needs, over src/storage's LanceDB store: table names follow
 * vector_store.index_schema, and a missing table is a QueryError that says how to create it.
 */
import type { Settings } from '../config/index.js'
import { QueryError } from '../errors.js'
import type { EmbeddingName } from '../model/index.js'
import type { VectorHit } from '../storage/vector-store.js'
import type { SearchVectorStore } from '../storage/vector-thread.js'

export interface QueryVectors {
  hasTable(name: EmbeddingName): Promise<boolean>
  /** The k nearest documents by cosine similarity, nearest first. */
  search(name: EmbeddingName, vector: ArrayLike<number>, k: number): Promise<VectorHit[]>
  /** Stored vectors by document id (unknown ids are absent). */
  vectorsById(name: EmbeddingName, ids: readonly string[]): Promise<Map<string, Float32Array>>
  close(): void
}

/** Opens the store at a db_uri: in process by default, on a thread for the CLI (src/storage/vector-thread.ts). */
export type OpenVectorStore = (dbUri: string) => Promise<SearchVectorStore>

// LanceDB and Arrow are imported with the first search: global search never loads them.
const inProcess: OpenVectorStore = async (dbUri) => (await import('../storage/vector-store.js')).openVectorStore(dbUri)

export function openQueryVectors(settings: Settings, dbUri: string, open: OpenVectorStore = inProcess): QueryVectors {
  // Opened on first use: global search never needs it, and a missing folder should not fail it.
  let opened: Promise<SearchVectorStore> | undefined
  const store = { get: () => (opened ??= open(dbUri)) }
  const tableName = (name: EmbeddingName) => settings.vector_store.index_schema[name]?.index_name ?? name
  const checked = new Set<string>()
  const ensure = async (name: EmbeddingName): Promise<string> => {
    const table = tableName(name)
    if (!checked.has(table)) {
      if (!(await (await store.get()).hasTable(table))) {
        throw new QueryError(
          `the vector store ${dbUri} has no ${table} table; run \`graphrag index\` with text embeddings (embed_text) or set vector_store.db_uri`,
        )
      }
      checked.add(table)
    }
    return table
  }
  return {
    hasTable: async (name) => (await store.get()).hasTable(tableName(name)),
    async search(name, vector, k) {
      const table = await ensure(name)
      try {
        return await (await store.get()).search(table, vector, k)
      } catch (cause) {
        // Usually a dimension mismatch: the question was embedded with another model than the index.
        throw new QueryError(
          `searching ${table} in ${dbUri} failed (embed questions with the embedding model used for indexing)`,
          { cause },
        )
      }
    },
    vectorsById: async (name, ids) =>
      ids.length === 0 ? new Map() : (await store.get()).vectorsById(await ensure(name), ids),
    close: () => {
      void opened?.then((s) => s.close())
    },
  }
}
