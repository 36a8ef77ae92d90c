/**
 * The `raw_entities` / `raw_relationships` snapshots (snapshots.raw_graph): the merged extraction
 * before summarisation, with every description still listed.
 */
import { column, defineTable, type RowOf } from './schema.js'

export const RAW_ENTITIES = defineTable('raw_entities', [
  column('title', 'string'),
  column('type', 'string'),
  column('description', 'list<string>'),
  column('text_unit_ids', 'list<string>'),
  column('frequency', 'int64'),
] as const)
export type RawEntityRow = RowOf<typeof RAW_ENTITIES>

export const RAW_RELATIONSHIPS = defineTable('raw_relationships', [
  column('source', 'string'),
  column('target', 'string'),
  column('description', 'list<string>'),
  column('text_unit_ids', 'list<string>'),
  column('weight', 'double'),
] as const)
export type RawRelationshipRow = RowOf<typeof RAW_RELATIONSHIPS>
