/** The indexing methods as ordered workflow lists; names are checked against the registry by tsc. */
import type { WorkflowName } from '../workflows/index.js'

export const METHODS = ['standard', 'fast'] as const
export type IndexMethod = (typeof METHODS)[number]

export const PIPELINES: Readonly<Record<IndexMethod, readonly WorkflowName[]>> = {
  standard: [
    'load_input_documents',
    'create_base_text_units',
    'create_final_documents',
    'extract_graph',
    'finalize_graph',
    'extract_covariates',
    'create_communities',
    'create_final_text_units',
    'create_community_reports',
    'generate_text_embeddings',
    // Ours: last, as cross-document edges read the text_unit_text vectors written just before.
    'create_chunk_graph',
  ],
  fast: [
    'load_input_documents',
    'create_base_text_units',
    'create_final_documents',
    'extract_graph_nlp',
    'prune_graph',
    'finalize_graph',
    'create_communities',
    'create_final_text_units',
    'create_community_reports_text',
    'generate_text_embeddings',
    'create_chunk_graph',
  ],
}

/** The merge steps that follow the method's list in an update (spec §3), after load_update_documents replaced its first step. */
const UPDATE_STEPS: readonly WorkflowName[] = [
  'update_final_documents',
  'update_entities_relationships',
  'update_text_units',
  'update_covariates',
  'update_communities',
  'update_community_reports',
  'update_text_embeddings',
  'update_clean_state',
]

/** `standard-update` and `fast-update`, as the reference names them. */
export const UPDATE_PIPELINES: Readonly<Record<IndexMethod, readonly WorkflowName[]>> = {
  standard: ['load_update_documents', ...PIPELINES.standard.slice(1), ...UPDATE_STEPS],
  fast: ['load_update_documents', ...PIPELINES.fast.slice(1), ...UPDATE_STEPS],
}
