/**
 * prune_graph (spec reference-index.md §5.6): drops entities by degree and frequency (minimum and
 * mean + k·std ceilings, optional ego node), relationships below a weight percentile, and
 * optionally everything outside the largest connected component.
 */
import { largestConnectedComponent } from '../../graph/components/index.js'
import { compareCodePoints } from '../../text/names.js'

export interface PruneGraphOptions {
  readonly min_node_freq: number
  readonly max_node_freq_std: number | null
  readonly min_node_degree: number
  readonly max_node_degree_std: number | null
  readonly min_edge_weight_pct: number
  readonly remove_ego_nodes: boolean
  readonly lcc_only: boolean
}

export interface PrunableEntity {
  readonly title: string
  readonly frequency: number
}

export interface PrunableRelationship {
  readonly source: string
  readonly target: string
  readonly weight: number
}

/**
 * Undirected degree over unique unordered pairs (a self-loop counts 2). Keys: relationship
 * titles sorted by code point, then entity titles without relationships (degree 0) in table order.
 */
export function degreeMap(
  entities: readonly PrunableEntity[],
  relationships: readonly PrunableRelationship[],
): Map<string, number> {
  const counts = new Map<string, number>()
  // A noun graph's pairs come ordered and unique: no key string per pair then (millions on a dense corpus).
  const seen = orderedUniquePairs(relationships) ? undefined : new Set<string>()
  for (const r of relationships) {
    const [a, b] = r.source <= r.target ? [r.source, r.target] : [r.target, r.source]
    if (seen !== undefined) {
      const key = `${a}\u0000${b}`
      if (seen.has(key)) continue
      seen.add(key)
    }
    counts.set(a, (counts.get(a) ?? 0) + 1)
    counts.set(b, (counts.get(b) ?? 0) + 1)
  }
  const out = new Map<string, number>()
  for (const title of [...counts.keys()].sort(compareCodePoints)) out.set(title, counts.get(title) ?? 0)
  for (const e of entities) if (!out.has(e.title)) out.set(e.title, 0)
  return out
}

/** Whether every pair has source < target and sorts strictly after the one before it (so none repeats). */
function orderedUniquePairs(relationships: readonly PrunableRelationship[]): boolean {
  for (let i = 0; i < relationships.length; i++) {
    const r = relationships[i]!
    if (r.source >= r.target) return false
    const before = relationships[i - 1]
    if (before !== undefined && (before.source > r.source || (before.source === r.source && before.target >= r.target)))
      return false
  }
  return true
}

/** numpy.percentile with linear interpolation between the closest ranks. */
export function percentile(values: ArrayLike<number>, pct: number): number {
  if (values.length === 0) return Number.NaN
  // A typed copy sorts natively, at 8 bytes a value (a dense corpus has tens of millions of weights).
  const sorted = Float64Array.from(values).sort()
  const rank = (pct / 100) * (sorted.length - 1)
  const lo = Math.floor(rank)
  const hi = Math.min(lo + 1, sorted.length - 1)
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (rank - lo)
}

/** mean + k · population standard deviation (numpy.std with ddof 0). */
export function upperThreshold(values: readonly number[], k: number): number {
  const mean = values.reduce((s, v) => s + v, 0) / values.length
  const variance = values.reduce((s, v) => s + (v - mean) ** 2, 0) / values.length
  return mean + k * Math.sqrt(variance)
}

/** Titles removed by the degree rules (ego node, minimum, std ceiling over every node of the map). */
export function degreeRemovals(degrees: Map<string, number>, options: PruneGraphOptions): Set<string> {
  const removed = new Set<string>()
  if (options.remove_ego_nodes && degrees.size > 0) {
    let ego: string | undefined
    let best = -Infinity
    for (const [title, degree] of degrees) if (degree > best) [ego, best] = [title, degree]
    if (ego !== undefined) removed.add(ego)
  }
  for (const [title, degree] of degrees) if (degree < options.min_node_degree) removed.add(title)
  if (options.max_node_degree_std !== null && degrees.size > 0) {
    const ceiling = upperThreshold([...degrees.values()], options.max_node_degree_std)
    for (const [title, degree] of degrees) if (degree > ceiling) removed.add(title)
  }
  return removed
}

/** Adds the frequency rules, computed over the entities the degree rules left. */
export function frequencyRemovals(
  entities: readonly PrunableEntity[],
  removed: Set<string>,
  options: PruneGraphOptions,
): void {
  let remaining = entities.filter((e) => !removed.has(e.title))
  for (const e of remaining) if (e.frequency < options.min_node_freq) removed.add(e.title)
  remaining = remaining.filter((e) => !removed.has(e.title))
  if (options.max_node_freq_std !== null && remaining.length > 0) {
    const ceiling = upperThreshold(
      remaining.map((e) => e.frequency),
      options.max_node_freq_std,
    )
    for (const e of remaining) if (e.frequency > ceiling) removed.add(e.title)
  }
}

export function pruneGraph<E extends PrunableEntity, R extends PrunableRelationship>(
  entities: readonly E[],
  relationships: readonly R[],
  options: PruneGraphOptions,
): { entities: E[]; relationships: R[] } {
  const removed = degreeRemovals(degreeMap(entities, relationships), options)
  frequencyRemovals(entities, removed, options)
  const kept = new Set(entities.map((e) => e.title).filter((t) => !removed.has(t)))
  let outEntities = entities.filter((e) => kept.has(e.title))
  let outRelationships = relationships.filter((r) => kept.has(r.source) && kept.has(r.target))
  if (options.min_edge_weight_pct > 0 && outRelationships.length > 0) {
    const threshold = percentile(
      Float64Array.from(outRelationships, (r) => r.weight),
      options.min_edge_weight_pct,
    )
    outRelationships = outRelationships.filter((r) => r.weight >= threshold)
  }
  if (options.lcc_only && outRelationships.length > 0) {
    const lcc = largestConnectedComponent(outRelationships)
    outEntities = outEntities.filter((e) => lcc.has(e.title))
    outRelationships = outRelationships.filter((r) => lcc.has(r.source) && lcc.has(r.target))
  }
  return { entities: outEntities, relationships: outRelationships }
}
