/**
 * build_noun_graph (spec reference-index.md §5.5 steps 3–6): noun phrases become nodes, phrases
 * sharing a text unit become co-occurrence edges, optionally re-weighted by PMI.
 */
import { compareCodePoints } from '../../text/names.js'
import type { RowOf } from '../../model/schema.js'
import type { NLP_ENTITIES } from '../../model/entities.js'
import type { NLP_RELATIONSHIPS } from '../../model/relationships.js'
import type { TextUnitPhrases } from './noun-phrases/cached.js'

export type NounGraphEntityRow = RowOf<typeof NLP_ENTITIES>
export type NounGraphRelationshipRow = RowOf<typeof NLP_RELATIONSHIPS>

export interface NounGraph {
  entities: NounGraphEntityRow[]
  relationships: NounGraphRelationshipRow[]
}

export interface BuildNounGraphOptions {
  /** Replace co-occurrence counts by the PMI-weighted probability (reference default true). */
  readonly normalize_edge_weights: boolean
}

/** Node rows in first-seen order; frequency = number of text units containing the phrase. */
export function buildNodes(units: readonly TextUnitPhrases[]): NounGraphEntityRow[] {
  const unitsByTitle = new Map<string, string[]>()
  for (const unit of units) {
    for (const phrase of new Set(unit.phrases)) {
      const list = unitsByTitle.get(phrase)
      if (list) list.push(unit.id)
      else unitsByTitle.set(phrase, [unit.id])
    }
  }
  return [...unitsByTitle].map(([title, ids]) => ({
    title,
    frequency: ids.length,
    text_unit_ids: ids,
    type: 'NOUN PHRASE',
    description: '',
  }))
}

/** Every distinct phrase's rank in code-point order, so that comparing ranks compares phrases. */
function phraseRanks(units: readonly TextUnitPhrases[]): { titles: string[]; rank: Map<string, number> } {
  const distinct = new Set<string>()
  for (const unit of units) for (const phrase of unit.phrases) distinct.add(phrase)
  const titles = [...distinct].sort(compareCodePoints)
  return { titles, rank: new Map(titles.map((title, i) => [title, i])) }
}

/**
 * Co-occurrences as integers: pair p (source rank, target rank) seen in count[p] text units, whose
 * indices (into the units) are chained from first[p] through unitOf/nextOf in the order added. Pairs are keyed per source rank: one Map of
 * all pairs stops at 2^24 entries (V8's limit), which a corpus of a few tens of MB reaches.
 */
class PairCounter {
  /** pairsBySource[source rank]: target rank → pair. */
  readonly pairsBySource: Map<number, number>[] = []
  private pairs = 0
  private first = new Int32Array(1024)
  private last = new Int32Array(1024)
  private unitOf = new Int32Array(4096)
  private nextOf = new Int32Array(4096)
  private count = new Int32Array(1024)
  private occurrences = 0

  add(source: number, target: number, unit: number): void {
    let pairs = this.pairsBySource[source]
    if (pairs === undefined) this.pairsBySource[source] = pairs = new Map()
    let pair = pairs.get(target)
    if (this.occurrences === this.unitOf.length) this.growOccurrences()
    const at = this.occurrences++
    this.unitOf[at] = unit
    this.nextOf[at] = -1
    if (pair === undefined) {
      pair = this.pairs++
      pairs.set(target, pair)
      if (pair === this.count.length) this.growPairs()
      this.first[pair] = at
    } else this.nextOf[this.last[pair]!] = at
    this.last[pair] = at
    this.count[pair]!++
  }

  /** The text units of pair `pair`, in the order they were added. */
  unitsOf(pair: number, ids: readonly string[]): string[] {
    const out = new Array<string>(this.count[pair]!)
    for (let at = this.first[pair]!, i = 0; at !== -1; at = this.nextOf[at]!) out[i++] = ids[this.unitOf[at]!]!
    return out
  }

  private growPairs(): void {
    this.first = doubled(this.first)
    this.last = doubled(this.last)
    this.count = doubled(this.count)
  }

  private growOccurrences(): void {
    this.unitOf = doubled(this.unitOf)
    this.nextOf = doubled(this.nextOf)
  }
}

function doubled(a: Int32Array<ArrayBuffer>): Int32Array<ArrayBuffer> {
  const bigger = new Int32Array(a.length * 2)
  bigger.set(a)
  return bigger
}

/**
 * Edges over every pair of the sorted unique phrases of each unit (source < target), ordered by
 * (source, target). Counted on integers (phrase ranks, unit indices), so a pair costs a few numbers
 * until its row is made, each row once with its text-unit list at its final size.
 */
export function buildEdges(units: readonly TextUnitPhrases[]): NounGraphRelationshipRow[] {
  const { titles, rank } = phraseRanks(units)
  const counter = new PairCounter()
  for (const [u, unit] of units.entries()) {
    const ranks = [...new Set(unit.phrases)].map((p) => rank.get(p)!).sort((a, b) => a - b)
    for (let i = 0; i < ranks.length; i++)
      for (let j = i + 1; j < ranks.length; j++) counter.add(ranks[i]!, ranks[j]!, u)
  }
  const ids = units.map((unit) => unit.id)
  const rows: NounGraphRelationshipRow[] = []
  for (const [sourceRank, pairs] of counter.pairsBySource.entries()) {
    if (pairs === undefined) continue
    const source = titles[sourceRank]!
    for (const target of [...pairs.keys()].sort((a, b) => a - b)) {
      const pair = pairs.get(target)!
      const text_unit_ids = counter.unitsOf(pair, ids)
      rows.push({ source, target: titles[target]!, weight: text_unit_ids.length, text_unit_ids, description: '' })
    }
  }
  return rows
}

/** PMI re-weighting: `p(x,y)·log2(p(x,y) / (p(x)·p(y)))` with p from edge weights and node frequencies. */
export function pmiWeights(nodes: readonly NounGraphEntityRow[], edges: readonly NounGraphRelationshipRow[]): number[] {
  const totalFrequency = nodes.reduce((sum, n) => sum + n.frequency, 0)
  const totalWeight = edges.reduce((sum, e) => sum + e.weight, 0)
  const frequency = new Map(nodes.map((n) => [n.title, n.frequency]))
  return edges.map((e) => {
    const pxy = e.weight / totalWeight
    const px = (frequency.get(e.source) ?? 0) / totalFrequency
    const py = (frequency.get(e.target) ?? 0) / totalFrequency
    return pxy * Math.log2(pxy / (px * py))
  })
}

export function buildNounGraph(units: readonly TextUnitPhrases[], options: BuildNounGraphOptions): NounGraph {
  const entities = buildNodes(units)
  const relationships = buildEdges(units)
  if (options.normalize_edge_weights && relationships.length > 0) {
    const weights = pmiWeights(entities, relationships)
    relationships.forEach((r, i) => (r.weight = weights[i]))
  }
  return { entities, relationships }
}
