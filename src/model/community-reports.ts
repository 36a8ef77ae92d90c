/** The `community_reports` table written by create_community_reports(_text). */
import { column, defineTable, type RowOf } from './schema.js'

export const COMMUNITY_REPORTS = defineTable('community_reports', [
  column('id', 'string'),
  column('human_readable_id', 'int64'),
  column('community', 'int64'),
  column('level', 'int64'),
  column('parent', 'int64'),
  column('children', 'list<int64>'),
  column('title', 'string'),
  column('summary', 'string'),
  column('full_content', 'string'),
  column('rank', 'double'),
  column('rating_explanation', 'string'),
  column('findings', 'findings'),
  column('full_content_json', 'string'),
  column('period', 'string'),
  column('size', 'int64'),
] as const)
export type CommunityReportRow = RowOf<typeof COMMUNITY_REPORTS>
