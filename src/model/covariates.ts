/** The `covariates` table (claims) written by extract_covariates. Claim fields may be null. */
import { column, defineTable, nullableColumn, type RowOf } from './schema.js'

export const COVARIATES = defineTable('covariates', [
  column('id', 'string'),
  column('human_readable_id', 'int64'),
  column('covariate_type', 'string'),
  nullableColumn('type', 'string'),
  nullableColumn('description', 'string'),
  nullableColumn('subject_id', 'string'),
  nullableColumn('object_id', 'string'),
  nullableColumn('status', 'string'),
  nullableColumn('start_date', 'string'),
  nullableColumn('end_date', 'string'),
  nullableColumn('source_text', 'string'),
  column('text_unit_id', 'string'),
] as const)
export type CovariateRow = RowOf<typeof COVARIATES>
