/**
 * `chunk_edges` (ours, not in Microsoft GraphRAG): directed, typed edges between text units,
 * written by create_chunk_graph and walked by graph and hybrid search.
 */
import { column, defineTable, type RowOf } from './schema.js'

/** Where an edge came from. */
export const CHUNK_EDGE_ORIGINS = ['sequence', 'shared_entities', 'llm', 'cross_document', 'cooccurrence'] as const
export type ChunkEdgeOrigin = (typeof CHUNK_EDGE_ORIGINS)[number]

/** The relations a model may assign; `related_to` is the shared-entity relation. */
export const CHUNK_EDGE_RELATIONS = [
  'references',
  'elaborates',
  'depends_on',
  'contradicts',
  'part_of',
  'similar_to',
  'sequence',
  'caused_by',
  'related_to',
] as const
export type ChunkEdgeRelation = (typeof CHUNK_EDGE_RELATIONS)[number]

/**
 * Relation names of the Evolution RAG design, accepted from a model (a custom prompt may ask for
 * them) though our prompt does not; `step_next` is also the parse-fallback relation.
 */
export const DESIGN_EDGE_RELATIONS = ['follows', 'supports', 'step_next'] as const

export const CHUNK_EDGES = defineTable('chunk_edges', [
  column('id', 'string'),
  column('source_id', 'string'),
  column('target_id', 'string'),
  column('relation', 'string'),
  column('weight', 'double'),
  column('description', 'string'),
  column('origin', 'string'),
] as const)
export type ChunkEdgeRow = RowOf<typeof CHUNK_EDGES>
