/**
 * From the edges of every source to the rows written: duplicates (same source, target and relation,
 * e.g. from overlapping batches) keep the highest weight (the first proposed on a tie), then
 * min_edge_weight and max_edges_per_chunk prune, and rows get stable ids in unit order.
 */
import type { ChunkEdgeRow } from '../../../model/chunk-edges.js'
import { chunkEdgeId } from '../graph-ids.js'
import type { DraftEdge } from './types.js'

export interface PruneOptions {
  minEdgeWeight: number
  /** 0 = unlimited. */
  maxEdgesPerChunk: number
}

export function dedupeEdges(edges: readonly DraftEdge[]): DraftEdge[] {
  const best = new Map<string, DraftEdge>()
  for (const edge of edges) {
    const key = `${edge.source}\u0000${edge.target}\u0000${edge.relation}`
    const seen = best.get(key)
    if (seen === undefined || edge.weight > seen.weight) best.set(key, edge)
  }
  return [...best.values()]
}

/** Drops edges below the minimum weight, then keeps each source's `maxEdgesPerChunk` heaviest outgoing edges. */
export function pruneEdges(edges: readonly DraftEdge[], options: PruneOptions): DraftEdge[] {
  const heavy = edges.filter((e) => e.weight >= options.minEdgeWeight)
  if (options.maxEdgesPerChunk === 0) return heavy
  const bySource = new Map<string, DraftEdge[]>()
  for (const edge of heavy) {
    const list = bySource.get(edge.source)
    // Pushed, not copied: a copy per edge made a source with k edges cost k².
    if (list === undefined) bySource.set(edge.source, [edge])
    else list.push(edge)
  }
  const kept = new Set<DraftEdge>()
  for (const list of bySource.values()) {
    // Array.prototype.sort is stable: equal weights keep the order they were proposed in.
    for (const edge of list.sort((a, b) => b.weight - a.weight).slice(0, options.maxEdgesPerChunk)) kept.add(edge)
  }
  return heavy.filter((e) => kept.has(e))
}

/** Rows in the order of their source unit, then target unit, then relation; `order` maps unit id → position. */
export function toRows(edges: readonly DraftEdge[], order: ReadonlyMap<string, number>): ChunkEdgeRow[] {
  const at = (id: string) => order.get(id) ?? Number.MAX_SAFE_INTEGER
  return [...edges]
    .sort(
      (a, b) =>
        at(a.source) - at(b.source) ||
        at(a.target) - at(b.target) ||
        (a.relation < b.relation ? -1 : a.relation > b.relation ? 1 : 0),
    )
    .map((e) => ({
      id: chunkEdgeId(e.source, e.target, e.relation),
      source_id: e.source,
      target_id: e.target,
      relation: e.relation,
      weight: e.weight,
      description: e.description,
      origin: e.origin,
    }))
}
