/** Shapes shared by the chunk-graph edge sources: the text units they read and the edges they propose. */
import type { ChunkEdgeOrigin } from '../../../model/chunk-edges.js'

/** The columns of a final text unit the edge sources read. */
export interface ChunkUnit {
  id: string
  human_readable_id: number
  document_id: string
  text: string
  entity_ids: readonly string[] | null
}

/** An edge before dedupe, pruning and ids: source → target are text unit ids. */
export interface DraftEdge {
  source: string
  target: string
  relation: string
  weight: number
  description: string
  origin: ChunkEdgeOrigin
}
