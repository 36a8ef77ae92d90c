/**
 * `curation_rules` (ours): the curation.yaml rules the index was built with, one JSON rule a row in
 * file order, so `graphrag update` knows when the rules changed with no document changed.
 */
import { column, defineTable, type RowOf } from './schema.js'

export const CURATION_RULES = defineTable('curation_rules', [column('rule', 'string')] as const)
export type CurationRuleRow = RowOf<typeof CURATION_RULES>
