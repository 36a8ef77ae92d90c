/** Relationships after their endpoints were renamed: pairs that coincide merge as extraction merges them. */
import type { RawRelationshipRow } from '../../../model/raw-graph.js'

export interface RewiredRelationships {
  relationships: RawRelationshipRow[]
  /** Relationships between two names of one entity, dropped (they would be self-loops). */
  droppedSelfLoops: number
}

/**
 * Descriptions listed in order, text units unioned, weights summed; first-seen pair order kept. The
 * input is never changed: a row no rename or merge touches is returned as it is (the same object; on a
 * dense noun graph a copy of millions of rows and their lists was the largest allocation of
 * extract_graph_nlp), a renamed or merged row is a new one with lists of its own.
 */
export function rewireRelationships(
  relationships: readonly RawRelationshipRow[],
  canonical: (title: string) => string,
): RewiredRelationships {
  if (unchangedAndUnique(relationships, canonical)) return { relationships: [...relationships], droppedSelfLoops: 0 }
  const pairs = new Map<string, RawRelationshipRow>()
  // Rows made here (renamed or merged): only these are changed in place by a later merge.
  const own = new Set<RawRelationshipRow>()
  let droppedSelfLoops = 0
  for (const r of relationships) {
    const source = canonical(r.source)
    const target = canonical(r.target)
    if (source === target && r.source !== r.target) {
      droppedSelfLoops++
      continue
    }
    const key = `${source}\u0000${target}`
    let current = pairs.get(key)
    if (current === undefined) {
      const row = source === r.source && target === r.target ? r : { ...copy(r), source, target }
      if (row !== r) own.add(row)
      pairs.set(key, row)
      continue
    }
    if (!own.has(current)) {
      current = copy(current)
      own.add(current)
      pairs.set(key, current)
    }
    current.description.push(...r.description)
    current.text_unit_ids = [...new Set([...current.text_unit_ids, ...r.text_unit_ids])]
    current.weight += r.weight
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
 * merges or drops and the result is the input's rows in input order, without a key string per pair (on
 * a dense noun graph of millions of pairs, that map was the largest allocation of extract_graph_nlp).
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
