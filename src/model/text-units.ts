/** The `text_units` table: base shape from chunking, final shape from create_final_text_units. */
import { column, defineTable, type RowOf } from './schema.js'

export const BASE_TEXT_UNITS = defineTable('text_units', [
  column('id', 'string'),
  column('document_id', 'string'),
  column('text', 'string'),
  column('n_tokens', 'int64'),
] as const)
export type BaseTextUnitRow = RowOf<typeof BASE_TEXT_UNITS>

export const TEXT_UNITS = defineTable('text_units', [
  column('id', 'string'),
  column('human_readable_id', 'int64'),
  column('text', 'string'),
  column('n_tokens', 'int64'),
  column('document_id', 'string'),
  column('entity_ids', 'list<string>'),
  column('relationship_ids', 'list<string>'),
  column('covariate_ids', 'list<string>'),
] as const)
export type TextUnitRow = RowOf<typeof TEXT_UNITS>
