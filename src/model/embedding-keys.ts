/**
 * `embedding_keys` (ours, not in Microsoft GraphRAG): for every vector generate_text_embeddings
 * stored in LanceDB, which text it embeds and which vector it is, as two SHA-256 keys. LanceDB keeps
 * ids and vectors but not the texts, so this is what lets `graphrag update` take a vector back from
 * LanceDB (with or without the LLM cache) only when the row's text, the embedding model and the
 * vector size are the same, and the stored vector is the one that was recorded.
 */
import { column, defineTable, type RowOf } from './schema.js'

export const EMBEDDING_KEYS = defineTable('embedding_keys', [
  /** The embedding name (entity_description, text_unit_text, ...). */
  column('name', 'string'),
  /** The id of the row in its table (and in the LanceDB table). */
  column('id', 'string'),
  /** SHA-256 of the embedding model's identity, the vector size and the embedded text. */
  column('text_key', 'string'),
  /** SHA-256 of the vector as LanceDB stores it (float32, little-endian). */
  column('vector_key', 'string'),
] as const)
export type EmbeddingKeyRow = RowOf<typeof EMBEDDING_KEYS>
