/**
 * Name merging (entity_resolution.normalize_names, formerly extract_graph.normalize_titles): entities
 * whose titles have the same key ("The Ghost of Christmas Past" / "GHOST OF CHRISTMAS PAST") become one
 * entity under the most frequent spelling, then the shortest, then the first in code-point order; the
 * other spellings are kept as aliases. Relationships follow their endpoints, and pairs that now
 * coincide are merged as extraction merges them (descriptions listed, weights summed).
 */
import type { EntityAliasRow } from '../../../model/entity-aliases.js'
import type { RawEntityRow, RawRelationshipRow } from '../../../model/raw-graph.js'
import { normalizeName } from '../../../text/normalize-name.js'
import { rewireRelationships } from '../entity-resolution/merge-relationships.js'

export interface NormalizedGraph {
  entities: RawEntityRow[]
  relationships: RawRelationshipRow[]
  aliases: EntityAliasRow[]
  /** Relationships between two spellings of one entity, dropped (they would be self-loops). */
  droppedSelfLoops: number
}

/** The spelling a group keeps: most frequent, then shortest, then first in code-point order (input order never decides). */
export function preferred(a: RawEntityRow, b: RawEntityRow): RawEntityRow {
  if (a.frequency !== b.frequency) return a.frequency > b.frequency ? a : b
  if (a.title.length !== b.title.length) return a.title.length < b.title.length ? a : b
  return a.title <= b.title ? a : b
}

/** The entities of each key, in input order (keys in first-seen order). */
export function groupByKey(
  entities: readonly RawEntityRow[],
  key: (title: string) => string,
): Map<string, RawEntityRow[]> {
  const groups = new Map<string, RawEntityRow[]>()
  for (const e of entities) {
    const k = key(e.title)
    const group = groups.get(k)
    if (group === undefined) groups.set(k, [e])
    else group.push(e)
  }
  return groups
}

export function normalizeTitles(
  entities: readonly RawEntityRow[],
  relationships: readonly RawRelationshipRow[],
  key: (title: string) => string = normalizeName,
): NormalizedGraph {
  const groups = groupByKey(entities, key)
  const canonical = new Map<string, string>()
  const merged: RawEntityRow[] = []
  const aliases: EntityAliasRow[] = []
  for (const [k, group] of groups) {
    const main = group.reduce(preferred)
    for (const e of group) canonical.set(e.title, main.title)
    for (const e of group) if (e !== main) aliases.push({ title: main.title, alias: e.title, normalized: k })
    const units = [...new Set(group.flatMap((e) => e.text_unit_ids))]
    merged.push({
      title: main.title,
      type: main.type,
      description: group.flatMap((e) => e.description),
      text_unit_ids: units,
      frequency: units.length,
    })
  }
  const rewired = rewireRelationships(relationships, (t) => canonical.get(t) ?? t)
  return { entities: merged, ...rewired, aliases }
}
