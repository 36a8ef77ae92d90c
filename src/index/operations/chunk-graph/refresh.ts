/**
 * A create_chunk_graph run narrowed to some documents' typed edges (chunk_graph.refresh_documents):
 *
 * - rebuild (`graphrag refresh-relations --source`): the documents' own batches are asked again; the
 *   typed edges touching their units are replaced, every other typed edge is kept;
 * - patch (refresh_new_units > 0, the seed design's relations-only incremental ingest): only the last
 *   N units of each document are new; batches slide by one unit from the `batchSize - 1` old units
 *   before the first new one, so every pair fewer than batchSize units apart with a new unit in it is
 *   asked about (the design's new-new and tail-old to early-new pairs). Kept edges are never removed
 *   and a proposed edge that exists already (same source, target and relation) is skipped.
 *
 * Edges without a model (sequence, shared entities, co-occurrence) are rebuilt for every unit as
 * always: they cost nothing.
 */
import { ConfigError } from '../../../errors.js'
import type { ChunkEdgeRow } from '../../../model/chunk-edges.js'
import { llmWindows, slidingWindows } from './batches.js'
import type { ChunkUnit, DraftEdge } from './types.js'

export interface RefreshRequest {
  /** Document ids whose typed edges are refreshed. */
  documents: ReadonlySet<string>
  /** 0 = rebuild the documents' typed edges; N > 0 = patch: the last N units of each are new. */
  newUnits: number
  batchSize: number
  batchOverlap: number
}

export interface RefreshPlan {
  /** The typed-edge batches to send. */
  windows: ChunkUnit[][]
  /** Units an accepted edge must touch: the documents' units (rebuild) or their new units (patch). */
  scope: ReadonlySet<string>
  patch: boolean
  /** Units of the documents before the new ones (patch), and the new ones (all units in a rebuild). */
  old: number
  new: number
  /** Unit pairs the batches ask about that have a unit in scope. */
  pairs: number
}

const TYPED_ORIGINS = new Set(['llm', 'cross_document'])

export function refreshPlan(units: readonly ChunkUnit[], request: RefreshRequest): RefreshPlan {
  const own = units.filter((u) => request.documents.has(u.document_id))
  if (request.newUnits === 0) {
    const windows = llmWindows(own, request)
    const scope = new Set(own.map((u) => u.id))
    return { windows, scope, patch: false, old: 0, new: own.length, pairs: pairsIn(windows, scope) }
  }
  const windows: ChunkUnit[][] = []
  const scope = new Set<string>()
  let old = 0
  for (const id of request.documents) {
    const doc = own.filter((u) => u.document_id === id)
    if (request.newUnits > doc.length)
      throw new ConfigError(
        `chunk_graph.refresh_new_units: document ${id} has ${doc.length} text units, fewer than the ${request.newUnits} said to be new`,
      )
    const boundary = doc.length - request.newUnits
    old += boundary
    for (const u of doc.slice(boundary)) scope.add(u.id)
    const tail = doc.slice(Math.max(0, boundary - (request.batchSize - 1)))
    for (const [s, e] of slidingWindows(tail.length, request.batchSize, request.batchSize - 1))
      windows.push(tail.slice(s, e))
  }
  return { windows, scope, patch: true, old, new: scope.size, pairs: pairsIn(windows, scope) }
}

/** Distinct unordered unit pairs within one batch with at least one unit in scope. */
function pairsIn(windows: readonly ChunkUnit[][], scope: ReadonlySet<string>): number {
  const pairs = new Set<string>()
  for (const w of windows)
    for (let i = 0; i < w.length; i++)
      for (let j = i + 1; j < w.length; j++)
        if (scope.has(w[i]!.id) || scope.has(w[j]!.id)) pairs.add(`${w[i]!.id}\u0000${w[j]!.id}`)
  return pairs.size
}

const touchesScope = (plan: RefreshPlan, edge: Pick<DraftEdge, 'source' | 'target'>): boolean =>
  plan.scope.has(edge.source) || plan.scope.has(edge.target)

/**
 * The typed edges of the current index the run keeps: those between units that still exist and,
 * in a rebuild, only those not touching the refreshed documents' units.
 */
export function keptTypedEdges(
  previous: readonly ChunkEdgeRow[],
  plan: RefreshPlan,
  unitIds: ReadonlySet<string>,
): DraftEdge[] {
  return previous
    .filter((row) => TYPED_ORIGINS.has(row.origin) && unitIds.has(row.source_id) && unitIds.has(row.target_id))
    .map((row) => ({
      source: row.source_id,
      target: row.target_id,
      relation: row.relation,
      weight: row.weight,
      description: row.description,
      origin: row.origin as DraftEdge['origin'],
    }))
    .filter((edge) => plan.patch || !touchesScope(plan, edge))
}

const edgeKey = (e: Pick<DraftEdge, 'source' | 'target' | 'relation'>): string =>
  `${e.source}\u0000${e.target}\u0000${e.relation}`

/**
 * The proposed typed edges a refresh adds: those touching its scope and not kept already. `skipped`
 * counts the ones that exist (same source, target and relation), each once.
 */
export function refreshedEdges(
  proposed: readonly DraftEdge[],
  plan: RefreshPlan,
  kept: readonly DraftEdge[],
): { edges: DraftEdge[]; created: number; skipped: number } {
  const existing = new Set(kept.map(edgeKey))
  const edges: DraftEdge[] = []
  const seen = new Set<string>()
  const skipped = new Set<string>()
  for (const edge of proposed) {
    if (!touchesScope(plan, edge)) continue
    const key = edgeKey(edge)
    if (existing.has(key)) skipped.add(key)
    else {
      edges.push(edge)
      seen.add(key)
    }
  }
  return { edges, created: seen.size, skipped: skipped.size }
}
