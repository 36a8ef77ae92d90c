/** `embeddings.<name>` snapshot tables written by generate_text_embeddings when snapshots.embeddings is on. */
import { column, type RowOf, type TableSchema } from './schema.js'

/** Every embedding of the reference family; each is its own LanceDB table. */
export const EMBEDDING_NAMES = [
  'entity_title',
  'entity_description',
  'relationship_description',
  'document_text',
  'text_unit_text',
  'community_title',
  'community_summary',
  'community_full_content',
] as const
export type EmbeddingName = (typeof EMBEDDING_NAMES)[number]

/** The embeddings generated when embed_text.names is not set (the reference default). */
export const DEFAULT_EMBEDDING_NAMES: readonly EmbeddingName[] = [
  'entity_description',
  'community_full_content',
  'text_unit_text',
]

const EMBEDDING_COLUMNS = [column('id', 'string'), column('embedding', 'list<double>')] as const

export function embeddingSnapshotTable(name: EmbeddingName): TableSchema<typeof EMBEDDING_COLUMNS> {
  return { name: `embeddings.${name}`, columns: EMBEDDING_COLUMNS }
}
export type EmbeddingSnapshotRow = RowOf<ReturnType<typeof embeddingSnapshotTable>>
