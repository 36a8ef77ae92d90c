/**
 * Per-chunk caps of seed design 001 (extract_graph.max_entities_per_chunk and
 * max_relationships_per_chunk): a model that lists hundreds of "entities" for one chunk (every
 * noun, a runaway gleaning) floods the graph with noise, so each text unit keeps at most N distinct
 * entities and M relationships. Which are kept is deterministic and follows mention strength:
 * entities by how many of the unit's records name them (entity records and relationship
 * endpoints), relationships by weight, ties by first appearance in the replies.
 */
import type { ParsedEntity, ParsedRelationship } from './parse.js'

export interface ChunkCaps {
  /** Distinct entity titles kept per text unit (0 = no cap). */
  maxEntities: number
  /** Relationships kept per text unit (0 = no cap). */
  maxRelationships: number
}

export interface CappedUnit {
  entities: ParsedEntity[]
  relationships: ParsedRelationship[]
  /** Distinct entity titles left out by the cap. */
  cappedEntities: number
  /** Relationships left out by the cap, or because an endpoint was capped away. */
  cappedRelationships: number
}

export function capUnitRecords(
  entities: readonly ParsedEntity[],
  relationships: readonly ParsedRelationship[],
  caps: ChunkCaps,
): CappedUnit {
  const kept = keptTitles(entities, relationships, caps.maxEntities)
  const keptEntities = kept === undefined ? [...entities] : entities.filter((e) => kept.has(e.title))
  const titles = new Set(entities.map((e) => e.title))
  // An endpoint the unit extracted but the cap left out would make the relationship an orphan here.
  const linked = relationships.filter(
    (r) =>
      kept === undefined ||
      !((titles.has(r.source) && !kept.has(r.source)) || (titles.has(r.target) && !kept.has(r.target))),
  )
  const keptRelationships = strongest(linked, caps.maxRelationships)
  return {
    entities: keptEntities,
    relationships: keptRelationships,
    cappedEntities: kept === undefined ? 0 : titles.size - kept.size,
    cappedRelationships: relationships.length - keptRelationships.length,
  }
}

/** The `max` titles named most often, ties by first appearance; undefined when all fit. */
function keptTitles(
  entities: readonly ParsedEntity[],
  relationships: readonly ParsedRelationship[],
  max: number,
): Set<string> | undefined {
  const firstSeen = new Map<string, number>()
  for (const e of entities) if (!firstSeen.has(e.title)) firstSeen.set(e.title, firstSeen.size)
  if (max === 0 || firstSeen.size <= max) return undefined
  const mentions = new Map<string, number>()
  const mention = (title: string) => {
    if (firstSeen.has(title)) mentions.set(title, (mentions.get(title) ?? 0) + 1)
  }
  for (const e of entities) mention(e.title)
  for (const r of relationships) {
    mention(r.source)
    mention(r.target)
  }
  const ranked = [...firstSeen.keys()].sort(
    (a, b) => (mentions.get(b) ?? 0) - (mentions.get(a) ?? 0) || (firstSeen.get(a) ?? 0) - (firstSeen.get(b) ?? 0),
  )
  return new Set(ranked.slice(0, max))
}

/** The `max` heaviest relationships in their reply order (all when max is 0 or they fit). */
function strongest(relationships: readonly ParsedRelationship[], max: number): ParsedRelationship[] {
  if (max === 0 || relationships.length <= max) return [...relationships]
  const keep = new Set(
    relationships
      .map((r, i) => ({ weight: r.weight, i }))
      .sort((a, b) => b.weight - a.weight || a.i - b.i)
      .slice(0, max)
      .map((x) => x.i),
  )
  return relationships.filter((_, i) => keep.has(i))
}
