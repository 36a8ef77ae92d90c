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
  if (unchangedAndUnique(relationships, canonical))
    return { relationships: relationships.map(copy), droppedSelfLoops: 0 }
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
    if (current === undefined) pairs.set(key, { ...copy(r), source, target })
    else {
      current.description.push(...r.description)
      current.text_unit_ids = [...new Set([...current.text_unit_ids, ...r.text_unit_ids])]
      current.weight += r.weight
    }
  }
  return { relationships: [...pairs.values()], droppedSelfLoops }
}

const copy = (r: RawRelationshipRow): RawRelationshipRow => ({
  ...r,
  description: [...r.description],
  text_unit_ids: [...r.text_unit_ids],
})

/**
 * Whether no endpoint is renamed and the pairs are strictly ascending (so none repeats): then nothing
 * merges or drops and the result is a copy in input order, without a key string per pair (on a dense
 * noun graph of millions of pairs, that map was the largest allocation of extract_graph_nlp).
 */
function unchangedAndUnique(rows: readonly RawRelationshipRow[], canonical: (title: string) => string): boolean {
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!
    if (canonical(r.source) !== r.source || canonical(r.target) !== r.target) return false
    const before = rows[i - 1]
    if (before === undefined) continue
    if (before.source > r.source || (before.source === r.source && before.target >= r.target)) return false
  }
  return true
}
