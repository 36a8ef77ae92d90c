/** The `entities` table: extracted shape (before finalize_graph) and final shape. */
import { column, defineTable, type RowOf } from './schema.js'

/** Written by extract_graph (standard) after summarisation; also used by prune_graph. */
export const EXTRACTED_ENTITIES = defineTable('entities', [
  column('title', 'string'),
  column('type', 'string'),
  column('text_unit_ids', 'list<string>'),
  column('frequency', 'int64'),
  column('description', 'string'),
] as const)
export type ExtractedEntityRow = RowOf<typeof EXTRACTED_ENTITIES>

/** Written by extract_graph_nlp (fast): the reference orders these columns differently. */
export const NLP_ENTITIES = defineTable('entities', [
  column('title', 'string'),
  column('frequency', 'int64'),
  column('text_unit_ids', 'list<string>'),
  column('type', 'string'),
  column('description', 'string'),
] as const)

export const ENTITIES = defineTable('entities', [
  column('id', 'string'),
  column('human_readable_id', 'int64'),
  column('title', 'string'),
  column('type', 'string'),
  column('description', 'string'),
  column('text_unit_ids', 'list<string>'),
  column('frequency', 'int64'),
  column('degree', 'int64'),
] as const)
export type EntityRow = RowOf<typeof ENTITIES>
