/** The `communities` table written by create_communities. */
import { column, defineTable, type RowOf } from './schema.js'

export const COMMUNITIES = defineTable('communities', [
  column('id', 'string'),
  column('human_readable_id', 'int64'),
  column('community', 'int64'),
  column('level', 'int64'),
  column('parent', 'int64'),
  column('children', 'list<int64>'),
  column('title', 'string'),
  column('entity_ids', 'list<string>'),
  column('relationship_ids', 'list<string>'),
  column('text_unit_ids', 'list<string>'),
  column('period', 'string'),
  column('size', 'int64'),
] as const)
export type CommunityRow = RowOf<typeof COMMUNITIES>
