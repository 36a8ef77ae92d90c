/**
 * Progress events under the seed design's stage names (its /ingest/stream): `stage` becomes the
 * design's name for what the workflow does, and `workflow` keeps ours. Workflows the design has no
 * stage for keep their own name, which its clients ignore like any unknown stage.
 *
 * Two design stages come from our events rather than from a workflow of their own:
 * `embedding_batch` ("batch_ok") for each group of texts the embeddings workflow finished (it embeds
 * in groups of embed_text.batch_size × 25 texts, several requests each, and reports each group),
 * followed by the aggregate `embedding_progress`; and `schema_index` when an embeddings workflow ends,
 * which is when our vector tables and their full-text index are written (the design's index setup).
 * A relations-only ingest job (inc_rel_only) names create_chunk_graph's events
 * `relation_incremental_start` / `relation_incremental_progress`, with the patch's figures.
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
  generate_text_embeddings: ['embedding', 'embedding_progress', 'schema_index'],
  update_text_embeddings: ['embedding', 'embedding_progress', 'schema_index'],
}

/** A relations-only job's create_chunk_graph; relation_incremental_done (with the counts) comes with the result (index-jobs.ts). */
const RELATIONS_ONLY = ['relation_incremental_start', 'relation_incremental_progress', 'relation_extraction_done']

/** A relations-only job's figures, sent with its start event: old and new units, window, unit pairs. */
export type RelationPatchFigures = Readonly<Record<'old' | 'new' | 'window' | 'pairs', number>>

/** Turns a job's events into the design's, in order; one shaper per stream (it counts embedding groups). */
export function seedStages(
  patch?: RelationPatchFigures,
): (data: Record<string, unknown>) => Array<Record<string, unknown>> {
  const embedded = new Map<string, number>()
  return (data) => {
    const workflow = data.stage
    const stages = typeof workflow === 'string' ? STAGES[workflow] : undefined
    if (stages === undefined) return [data]
    const detail = typeof data.detail === 'string' ? data.detail : ''
    const phase = detail === 'started' ? 0 : /^(finished|skipped)/.test(detail) ? 2 : 1
    if (patch !== undefined && workflow === 'create_chunk_graph') {
      const event = { ...data, stage: RELATIONS_ONLY[phase], workflow }
      if (phase === 0) return [{ ...event, ...patch }]
      return [phase === 1 ? { ...event, processed: data.current, total: data.total } : event]
    }
    const event = { ...data, stage: stages[phase], workflow }
    if (phase !== 1 || stages[1] !== 'embedding_progress') return [event]
    // A group is done when the count of embedded texts of this label has grown.
    const current = Number(data.current)
    const before = embedded.get(detail) ?? 0
    if (!(current > before)) return [event]
    embedded.set(detail, current)
    return [
      { stage: 'embedding_batch', detail: 'batch_ok', workflow, label: detail, current, total: data.total },
      event,
    ]
  }
}
