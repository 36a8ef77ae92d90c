/**
 * build_noun_graph (spec reference-index.md §5.5 steps 3–6): noun phrases become nodes, phrases
 * sharing a text unit become co-occurrence edges, optionally re-weighted by PMI (noun-pairs.ts).
 */
import type { RowOf } from '../../model/schema.js'
import type { NLP_ENTITIES } from '../../model/entities.js'
import type { NLP_RELATIONSHIPS } from '../../model/relationships.js'
import type { TextUnitPhrases } from './noun-phrases/cached.js'
import { buildNounPairs, pairRows } from './noun-pairs.js'

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
 * (source, target), weighted by their unit count: the pair columns (noun-pairs.ts) made into rows.
 */
export function buildEdges(units: readonly TextUnitPhrases[]): NounGraphRelationshipRow[] {
  return pairRows(buildNounPairs(units, false)).slice()
}

/** The whole graph as rows (the workflow keeps the pairs as columns: noun-graph-resolution.ts). */
export function buildNounGraph(units: readonly TextUnitPhrases[], options: BuildNounGraphOptions): NounGraph {
  const relationships = pairRows(buildNounPairs(units, options.normalize_edge_weights)).slice()
  return { entities: buildNodes(units), relationships }
}
