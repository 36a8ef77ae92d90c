/** `embeddings.<name>` snapshot tables written by generate_text_embeddings when snapshots.embeddings is on. */
import { column, type RowOf, type TableSchema } from './schema.js'

export const EMBEDDING_NAMES = ['entity_description', 'community_full_content', 'text_unit_text'] as const
export type EmbeddingName = (typeof EMBEDDING_NAMES)[number]

const EMBEDDING_COLUMNS = [column('id', 'string'), column('embedding', 'list<double>')] as const

export function embeddingSnapshotTable(name: EmbeddingName): TableSchema<typeof EMBEDDING_COLUMNS> {
  return { name: `embeddings.${name}`, columns: EMBEDDING_COLUMNS }
}
export type EmbeddingSnapshotRow = RowOf<ReturnType<typeof embeddingSnapshotTable>>
