/** Every workflow, by its reference name. Pipelines refer to these names; tsc rejects a typo. */
import type { Workflow } from '../workflow.js'
import { createBaseTextUnits } from './create_base_text_units.js'
import { createChunkGraph } from './create_chunk_graph.js'
import { createCommunities } from './create_communities.js'
import { createCommunityReports } from './create_community_reports.js'
import { createCommunityReportsText } from './create_community_reports_text.js'
import { createFinalDocuments } from './create_final_documents.js'
import { createFinalTextUnits } from './create_final_text_units.js'
import { extractCovariates } from './extract_covariates.js'
import { extractGraph } from './extract_graph.js'
import { extractGraphNlp } from './extract_graph_nlp.js'
import { finalizeGraph } from './finalize_graph.js'
import { generateTextEmbeddings } from './generate_text_embeddings.js'
import { loadInputDocuments } from './load_input_documents.js'
import { pruneGraph } from './prune_graph.js'
import { loadUpdateDocuments } from './load_update_documents.js'
import { updateFinalDocuments } from './update_final_documents.js'
import { updateEntitiesRelationships } from './update_entities_relationships.js'
import { updateTextUnits } from './update_text_units.js'
import { updateCovariates } from './update_covariates.js'
import { updateCommunities } from './update_communities.js'
import { updateCommunityReports } from './update_community_reports.js'
import { updateTextEmbeddings } from './update_text_embeddings.js'
import { updateCleanState } from './update_clean_state.js'

export const WORKFLOWS = {
  load_input_documents: loadInputDocuments,
  create_base_text_units: createBaseTextUnits,
  create_final_documents: createFinalDocuments,
  extract_graph: extractGraph,
  extract_graph_nlp: extractGraphNlp,
  prune_graph: pruneGraph,
  finalize_graph: finalizeGraph,
  extract_covariates: extractCovariates,
  create_communities: createCommunities,
  create_final_text_units: createFinalTextUnits,
  create_community_reports: createCommunityReports,
  create_community_reports_text: createCommunityReportsText,
  generate_text_embeddings: generateTextEmbeddings,
  create_chunk_graph: createChunkGraph,
  load_update_documents: loadUpdateDocuments,
  update_final_documents: updateFinalDocuments,
  update_entities_relationships: updateEntitiesRelationships,
  update_text_units: updateTextUnits,
  update_covariates: updateCovariates,
  update_communities: updateCommunities,
  update_community_reports: updateCommunityReports,
  update_text_embeddings: updateTextEmbeddings,
  update_clean_state: updateCleanState,
} as const satisfies Record<string, Workflow>

export type WorkflowName = keyof typeof WORKFLOWS

export function isWorkflowName(name: string): name is WorkflowName {
  return Object.hasOwn(WORKFLOWS, name)
}
