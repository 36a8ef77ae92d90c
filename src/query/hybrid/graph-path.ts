/**
 * The graph signal: entities reached from the question's entities by at most `maxHops`
 * relationships (either direction), and their text units ranked by path length (shorter first),
 * then by how many reached entities at that length they name (a passage naming two question
 * entities beats one naming one), then by the weight of the relationship that reached the entity
 * (heavier first), then id.
 */
import type { EntityRow } from '../../model/index.js'
import type { IndexRelationship } from '../load-index.js'

export interface ReachedEntity {
  entity: EntityRow
  hops: number
  /** Weight of the relationship the entity was reached by (Infinity for a question entity). */
  weight: number
  /** That relationship (undefined for a question entity). */
  via: IndexRelationship | undefined
}

export interface GraphUnitHit {
  id: string
  hops: number
  weight: number
  /** The entity that brought the unit in. */
  entity: string
  /** Reached entities at `hops` that name this unit. */
  count: number
}

/** Breadth-first walk from `start`; at each distance an entity keeps the heaviest relationship that reaches it. */
export function walkGraph(
  start: readonly EntityRow[],
  entities: readonly EntityRow[],
  relationships: readonly IndexRelationship[],
  maxHops: number,
): ReachedEntity[] {
  const byTitle = new Map(entities.map((e) => [e.title, e]))
  const adjacent = new Map<string, IndexRelationship[]>()
  const link = (title: string, r: IndexRelationship) => {
    const list = adjacent.get(title)
    if (list === undefined) adjacent.set(title, [r])
    else list.push(r)
  }
  for (const r of relationships) {
    link(r.source, r)
    if (r.target !== r.source) link(r.target, r)
  }
  const reached = new Map<string, ReachedEntity>()
  for (const e of start) reached.set(e.title, { entity: e, hops: 0, weight: Infinity, via: undefined })
  let frontier = [...reached.keys()]
  for (let hop = 1; hop <= maxHops && frontier.length > 0; hop++) {
    const next = new Map<string, ReachedEntity>()
    for (const title of frontier) {
      for (const r of adjacent.get(title) ?? []) {
        const other = r.source === title ? r.target : r.source
        const entity = byTitle.get(other)
        if (entity === undefined || reached.has(other)) continue
        const current = next.get(other)
        const weight = r.weight ?? 0
        if (current === undefined || weight > current.weight || (weight === current.weight && r.id < current.via!.id)) {
          next.set(other, { entity, hops: hop, weight, via: r })
        }
      }
    }
    for (const [title, hit] of next) reached.set(title, hit)
    frontier = [...next.keys()].sort()
  }
  return [...reached.values()].sort(
    (a, b) => a.hops - b.hops || b.weight - a.weight || (a.entity.title < b.entity.title ? -1 : 1),
  )
}

/** Text units of the reached entities, best path first; each unit counted once, at its best path. */
export function rankGraphUnits(reached: readonly ReachedEntity[], k: number): GraphUnitHit[] {
  const best = new Map<string, GraphUnitHit>()
  for (const r of reached) {
    for (const id of r.entity.text_unit_ids ?? []) {
      const current = best.get(id)
      if (current === undefined || r.hops < current.hops)
        best.set(id, { id, hops: r.hops, weight: r.weight, entity: r.entity.title, count: 1 })
      else if (r.hops === current.hops) {
        current.count += 1
        if (r.weight > current.weight) Object.assign(current, { weight: r.weight, entity: r.entity.title })
      }
    }
  }
  return [...best.values()]
    .sort(
      (a, b) => a.hops - b.hops || b.count - a.count || b.weight - a.weight || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
    )
    .slice(0, k)
}

/** The graph list's raw score: 1 / (1 + hops), so a question entity's own passages score 1. */
export function graphScore(hit: GraphUnitHit): number {
  return 1 / (1 + hit.hops)
}
