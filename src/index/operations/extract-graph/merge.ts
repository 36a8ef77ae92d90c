/**
 * Merges per-text-unit extraction results into one row per entity title and one per directed
 * (source, target) pair, in first-appearance order. Unlike the reference, an entity extracted with
 * different types stays one row (the most frequent type wins, ties by first seen).
 */
import type { ParsedEntity, ParsedRelationship } from './parse.js'
import type { RawEntityRow, RawRelationshipRow } from '../../../model/raw-graph.js'

export interface UnitExtraction {
  textUnitId: string
  entities: readonly ParsedEntity[]
  relationships: readonly ParsedRelationship[]
}

export interface MergedGraph {
  entities: RawEntityRow[]
  relationships: RawRelationshipRow[]
  /** Relationships dropped because an endpoint was never extracted as an entity. */
  orphanRelationships: number
}

interface EntityAcc {
  types: Map<string, number>
  descriptions: string[]
  units: Set<string>
}

interface RelationshipAcc {
  source: string
  target: string
  descriptions: string[]
  units: Set<string>
  weight: number
}

export function mergeExtractions(units: readonly UnitExtraction[]): MergedGraph {
  const entities = mergeEntities(units)
  const titles = new Set(entities.map((e) => e.title))
  const all = mergeRelationships(units)
  const relationships = all.filter((r) => titles.has(r.source) && titles.has(r.target))
  return { entities, relationships, orphanRelationships: all.length - relationships.length }
}

function mergeEntities(units: readonly UnitExtraction[]): RawEntityRow[] {
  const byTitle = new Map<string, EntityAcc>()
  for (const unit of units) {
    for (const e of unit.entities) {
      let acc = byTitle.get(e.title)
      if (acc === undefined) byTitle.set(e.title, (acc = { types: new Map(), descriptions: [], units: new Set() }))
      acc.types.set(e.type, (acc.types.get(e.type) ?? 0) + 1)
      acc.descriptions.push(e.description)
      acc.units.add(unit.textUnitId)
    }
  }
  return [...byTitle].map(([title, acc]) => ({
    title,
    type: mostFrequent(acc.types),
    description: acc.descriptions,
    text_unit_ids: [...acc.units],
    frequency: acc.units.size,
  }))
}

/** The key with the highest count; Map order makes the first seen win ties. */
function mostFrequent(counts: ReadonlyMap<string, number>): string {
  let best = ''
  let bestCount = 0
  for (const [key, count] of counts) {
    if (count > bestCount) [best, bestCount] = [key, count]
  }
  return best
}

function mergeRelationships(units: readonly UnitExtraction[]): RawRelationshipRow[] {
  const byPair = new Map<string, RelationshipAcc>()
  for (const unit of units) {
    for (const r of unit.relationships) {
      const key = `${r.source}\u0000${r.target}`
      let acc = byPair.get(key)
      if (acc === undefined)
        byPair.set(key, (acc = { source: r.source, target: r.target, descriptions: [], units: new Set(), weight: 0 }))
      acc.descriptions.push(r.description)
      acc.units.add(unit.textUnitId)
      acc.weight += r.weight
    }
  }
  return [...byPair.values()].map((acc) => ({
    source: acc.source,
    target: acc.target,
    description: acc.descriptions,
    text_unit_ids: [...acc.units],
    weight: acc.weight,
  }))
}
