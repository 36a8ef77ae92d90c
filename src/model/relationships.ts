/** The `relationships` table: extracted shape (before finalize_graph) and final shape. */
import { column, defineTable, type RowOf } from './schema.js'

export const EXTRACTED_RELATIONSHIPS = defineTable('relationships', [
  column('source', 'string'),
  column('target', 'string'),
  column('text_unit_ids', 'list<string>'),
  column('weight', 'double'),
  column('description', 'string'),
] as const)
export type ExtractedRelationshipRow = RowOf<typeof EXTRACTED_RELATIONSHIPS>

/** Written by extract_graph_nlp (fast): the reference orders these columns differently. */
export const NLP_RELATIONSHIPS = defineTable('relationships', [
  column('source', 'string'),
  column('target', 'string'),
  column('weight', 'double'),
  column('text_unit_ids', 'list<string>'),
  column('description', 'string'),
] as const)

export const RELATIONSHIPS = defineTable('relationships', [
  column('id', 'string'),
  column('human_readable_id', 'int64'),
  column('source', 'string'),
  column('target', 'string'),
  column('description', 'string'),
  column('weight', 'double'),
  column('combined_degree', 'int64'),
  column('text_unit_ids', 'list<string>'),
] as const)
export type RelationshipRow = RowOf<typeof RELATIONSHIPS>
