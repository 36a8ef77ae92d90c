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
 * Pairs are counted one source unit at a time, so memory holds one unit's counts plus the edges
 * kept. With `maxPerUnit` > 0 only each unit's heaviest edges are kept (max_edges_per_chunk would
 * drop the others anyway), which bounds the output when a few entities appear in most units.
 */
export function sharedEntityEdges(
  units: readonly ChunkUnit[],
  titles: ReadonlyMap<string, string>,
  minShared: number,
  maxPerUnit = 0,
): DraftEdge[] {
  const entitiesOf = units.map((u) => [...new Set(u.entity_ids ?? [])])
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
    const shared = new Map<number, string[]>()
    for (const entity of entities) {
      for (const target of unitsByEntity.get(entity)!) {
        if (target === source) continue
        const list = shared.get(target)
        if (list === undefined) shared.set(target, [entity])
        else list.push(entity)
      }
    }
    let own = [...shared]
      .filter(([, list]) => list.length >= minShared)
      .map(([target, list]) => ({ source, target, entities: list }))
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
