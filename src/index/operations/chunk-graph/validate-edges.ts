/**
 * Validation of the edges a model proposes for one batch: each edge is checked on its own and an
 * invalid one is dropped with its reason, so one bad edge never costs the batch's good ones.
 */
import {
  CHUNK_EDGE_RELATIONS,
  DESIGN_EDGE_RELATIONS,
  type ChunkEdgeOrigin,
  type ChunkEdgeRelation,
} from '../../../model/chunk-edges.js'
import type { ChunkUnit, DraftEdge } from './types.js'

/** The relations a model may assign (related_to is reserved for shared-entity edges). */
export const LLM_RELATIONS: readonly ChunkEdgeRelation[] = CHUNK_EDGE_RELATIONS.filter((r) => r !== 'related_to')
/** What a model's edge may name: the prompted relations and the design's. */
const ACCEPTED_RELATIONS: ReadonlySet<string> = new Set([...LLM_RELATIONS, ...DESIGN_EDGE_RELATIONS])

export type DropReason =
  | 'not_an_object'
  | 'unknown_id'
  | 'self_edge'
  | 'unknown_relation'
  | 'bad_weight'
  | 'same_document'

export interface BatchEdges {
  edges: DraftEdge[]
  dropped: DropReason[]
}

/** The label a unit has in prompts and replies: its human_readable_id. */
export function unitLabel(unit: ChunkUnit): string {
  return String(unit.human_readable_id)
}

/**
 * Checks every edge of a reply's `edges` list against the batch: both ids in the batch, no
 * self-edge, a known relation, a weight in (0, 1], and for cross-document batches two documents.
 */
export function validateEdges(
  items: readonly unknown[],
  batch: readonly ChunkUnit[],
  origin: ChunkEdgeOrigin,
): BatchEdges {
  const byLabel = new Map(batch.map((u) => [unitLabel(u), u]))
  const out: BatchEdges = { edges: [], dropped: [] }
  for (const item of items) {
    const checked = checkEdge(item, byLabel, origin)
    if (typeof checked === 'string') out.dropped.push(checked)
    else out.edges.push(checked)
  }
  return out
}

function checkEdge(
  item: unknown,
  byLabel: ReadonlyMap<string, ChunkUnit>,
  origin: ChunkEdgeOrigin,
): DraftEdge | DropReason {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) return 'not_an_object'
  const e = item as Record<string, unknown>
  const source = byLabel.get(label(e.source))
  const target = byLabel.get(label(e.target))
  if (source === undefined || target === undefined) return 'unknown_id'
  if (source.id === target.id) return 'self_edge'
  const relation =
    typeof e.relation === 'string'
      ? e.relation
          .trim()
          .toLowerCase()
          .replace(/[\s-]+/g, '_')
      : ''
  if (!ACCEPTED_RELATIONS.has(relation)) return 'unknown_relation'
  const weight =
    typeof e.weight === 'number'
      ? e.weight
      : typeof e.weight === 'string' && e.weight.trim() !== ''
        ? Number(e.weight)
        : NaN
  if (!Number.isFinite(weight) || weight <= 0 || weight > 1) return 'bad_weight'
  if (origin === 'cross_document' && source.document_id === target.document_id) return 'same_document'
  const description = typeof e.description === 'string' ? e.description.trim() : ''
  return { source: source.id, target: target.id, relation, weight, description, origin }
}

/** Ids come back as numbers or strings, sometimes with the prompt's `unit ` prefix. */
function label(value: unknown): string {
  if (typeof value === 'number' && Number.isInteger(value)) return String(value)
  if (typeof value !== 'string') return ''
  return value.trim().replace(/^(?:text\s*)?unit\s*/i, '')
}
