/** Relationships after their endpoints were renamed: pairs that coincide merge as extraction merges them. */
import type { RawRelationshipRow } from '../../../model/raw-graph.js'

export interface RewiredRelationships {
  relationships: RawRelationshipRow[]
  /** Relationships between two names of one entity, dropped (they would be self-loops). */
  droppedSelfLoops: number
}

/** Descriptions listed in order, text units unioned, weights summed; first-seen pair order kept. */
export function rewireRelationships(
  relationships: readonly RawRelationshipRow[],
  canonical: (title: string) => string,
): RewiredRelationships {
  const pairs = new Map<string, RawRelationshipRow>()
  let droppedSelfLoops = 0
  for (const r of relationships) {
    const source = canonical(r.source)
    const target = canonical(r.target)
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
  return { relationships: [...pairs.values()], droppedSelfLoops }
}
