/**
 * `entity_aliases` (ours, not in Microsoft GraphRAG): the other spellings of an entity merged by
 * extract_graph.normalize_titles ("The Ghost of Christmas Past" kept as an alias of "GHOST OF
 * CHRISTMAS PAST"). Search matches question entities against titles and these aliases.
 */
import { column, defineTable, type RowOf } from './schema.js'

export const ENTITY_ALIASES = defineTable('entity_aliases', [
  column('title', 'string'),
  column('alias', 'string'),
  column('normalized', 'string'),
] as const)
export type EntityAliasRow = RowOf<typeof ENTITY_ALIASES>
