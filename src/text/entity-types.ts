/**
 * Entity-type discovery, consolidation step: the types the model gave each entity of each sampled
 * chunk are counted per source document and reduced to one list. `global` keeps the types most
 * frequent over the whole sample; `stratified` lets every document contribute its own top types in
 * turn, so a small domain of a mixed corpus is not outvoted by a large one.
 */

export type TypeStrategy = 'global' | 'stratified'

export interface TypedMention {
  documentId: string
  /** Entity name as the model gave it (counted once per document and type). */
  name: string
  type: string
}

export interface ConsolidateOptions {
  strategy: TypeStrategy
  /** At most this many types are kept. */
  maxTypes: number
  /**
   * A type needs at least this fraction of the entities it is counted against: of the whole sample
   * for `global`, of its own document for `stratified` (so one stray label is noise, not a type).
   */
  minShare: number
}

export interface TypeCount {
  type: string
  count: number
}

/** `ship`, `Ships`, ` research vessel ` → `SHIP`, `SHIPS`, `RESEARCH_VESSEL`; '' when nothing usable is left. */
export function normalizeType(raw: string): string {
  return raw
    .normalize('NFKC')
    .toUpperCase()
    .replace(/[^\p{L}\p{N}]+/gu, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 40)
}

/** Distinct entities per type, by descending count then name (a stable order for ties). */
export function countTypes(mentions: readonly TypedMention[]): TypeCount[] {
  const names = new Map<string, Set<string>>()
  for (const m of mentions) {
    const type = normalizeType(m.type)
    const name = m.name.trim().toUpperCase()
    if (type === '' || name === '') continue
    let set = names.get(type)
    if (set === undefined) names.set(type, (set = new Set()))
    set.add(name)
  }
  return [...names].map(([type, set]) => ({ type, count: set.size })).sort(byCountThenName)
}

export function consolidateTypes(mentions: readonly TypedMention[], options: ConsolidateOptions): string[] {
  if (options.strategy === 'global')
    return eligible(countTypes(mentions), options.minShare)
      .slice(0, options.maxTypes)
      .map((t) => t.type)
  const ranked = rankedPerDocument(mentions, options.minShare)
  const kept: string[] = []
  // Round-robin over documents (largest sample first): each document's best remaining type in turn.
  for (let rank = 0; kept.length < options.maxTypes && ranked.some((r) => rank < r.length); rank++) {
    for (const types of ranked) {
      const type = types[rank]
      if (type !== undefined && !kept.includes(type)) kept.push(type)
      if (kept.length >= options.maxTypes) break
    }
  }
  return kept
}

/** Per document, its eligible types in rank order; documents ordered by their number of entities. */
function rankedPerDocument(mentions: readonly TypedMention[], minShare: number): string[][] {
  const byDocument = new Map<string, TypedMention[]>()
  for (const m of mentions) {
    let list = byDocument.get(m.documentId)
    if (list === undefined) byDocument.set(m.documentId, (list = []))
    list.push(m)
  }
  return [...byDocument]
    .map(([id, list]) => ({ id, counts: countTypes(list) }))
    .map((d) => ({ ...d, total: d.counts.reduce((n, c) => n + c.count, 0) }))
    .sort((a, b) => b.total - a.total || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((d) => eligible(d.counts, minShare).map((c) => c.type))
}

function eligible(counts: readonly TypeCount[], minShare: number): TypeCount[] {
  const total = counts.reduce((n, c) => n + c.count, 0)
  return counts.filter((c) => total > 0 && c.count / total >= minShare)
}

function byCountThenName(a: TypeCount, b: TypeCount): number {
  return b.count - a.count || (a.type < b.type ? -1 : a.type > b.type ? 1 : 0)
}
