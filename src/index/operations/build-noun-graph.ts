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

/**
 * Edges over every pair of the sorted unique phrases of each unit (source < target), ordered by
 * (source, target). Pairs are kept per source phrase: one Map of all pairs stops at 2^24 entries
 * (V8's limit), which a corpus of a few tens of MB reaches.
 */
export function buildEdges(units: readonly TextUnitPhrases[]): NounGraphRelationshipRow[] {
  const bySource = new Map<string, Map<string, NounGraphRelationshipRow>>()
  for (const unit of units) {
    const phrases = [...new Set(unit.phrases)].sort(compareCodePoints)
    for (let i = 0; i < phrases.length; i++) {
      const source = phrases[i]
      let targets = bySource.get(source)
      if (targets === undefined) bySource.set(source, (targets = new Map()))
      for (let j = i + 1; j < phrases.length; j++) {
        const edge = targets.get(phrases[j])
        if (edge) edge.text_unit_ids.push(unit.id)
        else
          targets.set(phrases[j], { source, target: phrases[j], weight: 0, text_unit_ids: [unit.id], description: '' })
      }
    }
  }
  const rows: NounGraphRelationshipRow[] = []
  for (const source of [...bySource.keys()].sort(compareCodePoints)) {
    const targets = bySource.get(source)!
    for (const target of [...targets.keys()].sort(compareCodePoints)) {
      const row = targets.get(target)!
      row.weight = row.text_unit_ids.length
      rows.push(row)
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
