/**
 * Shared-entity edges: two text units that mention at least `minShared` of the same entities get a
 * related_to edge in each direction (the relation is symmetric and walks follow outgoing edges).
 * The weight is the shared count divided by the largest shared count of any pair, so it lies in
 * (0, 1]; the raw count and the first entity titles are kept in the description.
 */
import type { ChunkUnit, DraftEdge } from './types.js'

const NAMED_ENTITIES = 5

interface Counted {
  source: number
  target: number
  entities: string[]
}

/**
 * An entity mentioned in more units than this is a hub (a main character, the corpus's subject):
 * pairing every unit that mentions it with every other would cost the square of the corpus. A unit
 * takes as candidates only the HUB_NEIGHBOURS nearest units (in table order) on each side that also
 * mention it; every other entity contributes all its units, so corpora without hubs get every pair.
 */
const HUB_UNITS = 64
const HUB_NEIGHBOURS = 16

/**
 * Candidates are gathered one source unit at a time, then each candidate's shared entities are
 * counted exactly (set intersection), so memory holds one unit's candidates plus the edges kept and
 * time grows with the corpus, not its square. With `maxPerUnit` > 0 only each unit's heaviest edges
 * are kept (max_edges_per_chunk would drop the others anyway).
 */
export function sharedEntityEdges(
  units: readonly ChunkUnit[],
  titles: ReadonlyMap<string, string>,
  minShared: number,
  maxPerUnit = 0,
): DraftEdge[] {
  const entitiesOf = units.map((u) => [...new Set(u.entity_ids ?? [])])
  const entitySets = entitiesOf.map((entities) => new Set(entities))
  // Each list is in ascending unit order (units are visited in order).
  const unitsByEntity = new Map<string, number[]>()
  entitiesOf.forEach((entities, i) => {
    for (const entity of entities) {
      const list = unitsByEntity.get(entity)
      if (list === undefined) unitsByEntity.set(entity, [i])
      else list.push(i)
    }
  })
  const kept: Counted[] = []
  let most = 0
  entitiesOf.forEach((entities, source) => {
    const candidates = new Set<number>()
    for (const entity of entities)
      for (const target of nearby(unitsByEntity.get(entity)!, source)) candidates.add(target)
    candidates.delete(source)
    let own: Counted[] = []
    for (const target of candidates) {
      const shared = entities.filter((e) => entitySets[target]!.has(e))
      if (shared.length >= minShared) own.push({ source, target, entities: shared })
    }
    own.sort((a, b) => a.target - b.target)
    if (maxPerUnit > 0)
      own = [...own]
        .sort((a, b) => b.entities.length - a.entities.length)
        .slice(0, maxPerUnit)
        .sort((a, b) => a.target - b.target)
    for (const c of own) most = Math.max(most, c.entities.length)
    kept.push(...own)
  })
  return kept.map(({ source, target, entities }) => {
    const names = entities.map((id) => titles.get(id) ?? id).slice(0, NAMED_ENTITIES)
    const more = entities.length > NAMED_ENTITIES ? ', …' : ''
    const description = `${entities.length} shared entities: ${names.join(', ')}${more}`
    const weight = entities.length / most
    return {
      source: units[source]!.id,
      target: units[target]!.id,
      relation: 'related_to',
      weight,
      description,
      origin: 'shared_entities' as const,
    }
  })
}

/** The units of an entity a source pairs with: all of them, or for a hub the nearest on each side of the source. */
function nearby(list: readonly number[], source: number): readonly number[] {
  if (list.length <= HUB_UNITS) return list
  let low = 0
  let high = list.length
  while (low < high) {
    const mid = (low + high) >> 1
    if (list[mid]! < source) low = mid + 1
    else high = mid
  }
  return list.slice(Math.max(0, low - HUB_NEIGHBOURS), low + HUB_NEIGHBOURS + 1)
}
