/** The `documents` table: interim shape written by load_input_documents, final by create_final_documents. */
import { column, defineTable, nullableColumn, type RowOf } from './schema.js'

export const INPUT_DOCUMENTS = defineTable('documents', [
  column('id', 'string'),
  column('text', 'string'),
  column('title', 'string'),
  column('creation_date', 'string'),
  nullableColumn('raw_data', 'json'),
  column('human_readable_id', 'int64'),
] as const)
export type InputDocumentRow = RowOf<typeof INPUT_DOCUMENTS>

export const DOCUMENTS = defineTable('documents', [
  column('id', 'string'),
  column('human_readable_id', 'int64'),
  column('title', 'string'),
  column('text', 'string'),
  column('text_unit_ids', 'list<string>'),
  column('creation_date', 'string'),
  nullableColumn('raw_data', 'json'),
] as const)
export type DocumentRow = RowOf<typeof DOCUMENTS>
