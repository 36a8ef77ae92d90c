/**
 * Shared-entity edges: two text units that mention at least `minShared` of the same entities get a
 * related_to edge in each direction (the relation is symmetric and walks follow outgoing edges).
 * The weight is the shared count divided by the largest shared count of any pair, so it lies in
 * (0, 1]; the raw count and the first entity titles are kept in the description.
 */
import type { ChunkUnit, DraftEdge } from './types.js'

const NAMED_ENTITIES = 5

export function sharedEntityEdges(units: readonly ChunkUnit[], titles: ReadonlyMap<string, string>, minShared: number): DraftEdge[] {
  const unitsByEntity = new Map<string, number[]>()
  units.forEach((unit, i) => {
    for (const entity of new Set(unit.entity_ids ?? [])) {
      const list = unitsByEntity.get(entity)
      if (list === undefined) unitsByEntity.set(entity, [i])
      else list.push(i)
    }
  })
  // Pair key "a,b" (a < b, unit positions) → the entities both mention, in first-seen order.
  const shared = new Map<string, string[]>()
  for (const [entity, list] of unitsByEntity) {
    for (let x = 0; x < list.length; x++) {
      for (let y = x + 1; y < list.length; y++) {
        const key = `${list[x]},${list[y]}`
        const entities = shared.get(key)
        if (entities === undefined) shared.set(key, [entity])
        else entities.push(entity)
      }
    }
  }
  const kept = [...shared].filter(([, entities]) => entities.length >= minShared)
  const most = kept.reduce((max, [, entities]) => Math.max(max, entities.length), 0)
  const edges: DraftEdge[] = []
  const pairs = kept.map(([key, entities]) => ({ pair: key.split(',').map(Number) as [number, number], entities }))
  pairs.sort((p, q) => p.pair[0] - q.pair[0] || p.pair[1] - q.pair[1])
  for (const { pair, entities } of pairs) {
    const [a, b] = [units[pair[0]]!, units[pair[1]]!]
    const names = entities.map((id) => titles.get(id) ?? id).slice(0, NAMED_ENTITIES)
    const more = entities.length > NAMED_ENTITIES ? ', …' : ''
    const description = `${entities.length} shared entities: ${names.join(', ')}${more}`
    const weight = entities.length / most
    edges.push({ source: a.id, target: b.id, relation: 'related_to', weight, description, origin: 'shared_entities' })
    edges.push({ source: b.id, target: a.id, relation: 'related_to', weight, description, origin: 'shared_entities' })
  }
  return edges
}
