/**
 * Progress events under the seed design's stage names (its /ingest/stream): `stage` becomes the
 * design's name for what the workflow does, and `workflow` keeps ours. Workflows the design has no
 * stage for keep their own name, which its clients ignore like any unknown stage.
 */

/** Design stage by workflow: [when it starts, while it runs, when it ends]. */
const STAGES: Readonly<Record<string, readonly [string, string, string]>> = {
  load_input_documents: ['scan_input', 'scan_input', 'scan_input'],
  load_update_documents: ['scan_input', 'scan_input', 'existing_scan'],
  create_base_text_units: ['hash_computed', 'hash_computed', 'hash_computed'],
  create_final_documents: ['existing_scan', 'existing_scan', 'existing_scan'],
  extract_graph: ['entity_extraction', 'entity_extraction', 'entity_extraction'],
  extract_graph_nlp: ['entity_extraction', 'entity_extraction', 'entity_extraction'],
  update_entities_relationships: ['entity_extraction', 'entity_extraction', 'entity_extraction'],
  finalize_graph: ['relates_to', 'relates_to', 'relates_to'],
  create_chunk_graph: ['relation_start', 'relation_extraction', 'relation_extraction_done'],
  generate_text_embeddings: ['embedding', 'embedding_progress', 'embedding'],
  update_text_embeddings: ['embedding', 'embedding_progress', 'embedding'],
}

/** A job event's data as the design's clients read it; events that are no workflow's pass unchanged. */
export function seedStageEvent(data: Record<string, unknown>): Record<string, unknown> {
  const workflow = data.stage
  if (typeof workflow !== 'string') return data
  const stages = STAGES[workflow]
  if (stages === undefined) return data
  const detail = typeof data.detail === 'string' ? data.detail : ''
  const phase = detail === 'started' ? 0 : /^(finished|skipped)/.test(detail) ? 2 : 1
  return { ...data, stage: stages[phase], workflow }
}
