/**
 * extract_graph.normalize_titles: entities whose titles normalise to the same key ("The Ghost of
 * Christmas Past" / "GHOST OF CHRISTMAS PAST") become one entity under their most frequent (then
 * shortest) spelling; the other spellings are kept as aliases. Relationships follow their endpoints, and
 * pairs that now coincide are merged as extraction merges them (descriptions listed, weights summed).
 */
import type { EntityAliasRow } from '../../../model/entity-aliases.js'
import type { RawEntityRow, RawRelationshipRow } from '../../../model/raw-graph.js'
import { normalizeName } from '../../../text/normalize-name.js'

export interface NormalizedGraph {
  entities: RawEntityRow[]
  relationships: RawRelationshipRow[]
  aliases: EntityAliasRow[]
  /** Relationships between two spellings of one entity, dropped (they would be self-loops). */
  droppedSelfLoops: number
}

export function normalizeTitles(
  entities: readonly RawEntityRow[],
  relationships: readonly RawRelationshipRow[],
): NormalizedGraph {
  const groups = new Map<string, RawEntityRow[]>()
  for (const e of entities) {
    const key = normalizeName(e.title)
    const group = groups.get(key)
    if (group === undefined) groups.set(key, [e])
    else group.push(e)
  }
  const canonical = new Map<string, string>()
  const merged: RawEntityRow[] = []
  const aliases: EntityAliasRow[] = []
  for (const [key, group] of groups) {
    // Most frequent spelling wins, then the shortest ("GHOST OF …" over "THE GHOST OF …"), then the first extracted.
    const main = group.reduce((best, e) =>
      e.frequency > best.frequency || (e.frequency === best.frequency && e.title.length < best.title.length) ? e : best,
    )
    for (const e of group) canonical.set(e.title, main.title)
    for (const e of group) if (e !== main) aliases.push({ title: main.title, alias: e.title, normalized: key })
    const units = [...new Set(group.flatMap((e) => e.text_unit_ids))]
    merged.push({
      title: main.title,
      type: main.type,
      description: group.flatMap((e) => e.description),
      text_unit_ids: units,
      frequency: units.length,
    })
  }
  const pairs = new Map<string, RawRelationshipRow>()
  let droppedSelfLoops = 0
  for (const r of relationships) {
    const source = canonical.get(r.source) ?? r.source
    const target = canonical.get(r.target) ?? r.target
    if (source === target && r.source !== r.target) {
      droppedSelfLoops++
      continue
    }
    const key = `${source}\u0000${target}`
    const current = pairs.get(key)
    if (current === undefined)
      pairs.set(key, { ...r, source, target, description: [...r.description], text_unit_ids: [...r.text_unit_ids] })
    else {
      current.description.push(...r.description)
      current.text_unit_ids = [...new Set([...current.text_unit_ids, ...r.text_unit_ids])]
      current.weight += r.weight
    }
  }
  return { entities: merged, relationships: [...pairs.values()], aliases, droppedSelfLoops }
}
