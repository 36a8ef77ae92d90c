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
