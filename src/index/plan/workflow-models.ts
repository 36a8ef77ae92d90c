/** Which configured models a workflow will call, for the preflight check and the dry-run estimate. */
import type { Settings } from '../../config/schema.js'
import type { WorkflowName } from '../workflows/index.js'

export interface ModelsUsed {
  chat: string[]
  embedding: string[]
}

export function modelsUsedBy(name: WorkflowName, settings: Settings): ModelsUsed {
  const chat = (id: string | null): ModelsUsed => ({ chat: id === null ? [] : [id], embedding: [] })
  switch (name) {
    case 'extract_graph':
      return { chat: unique([settings.extract_graph.completion_model_id, settings.summarize_descriptions.completion_model_id]), embedding: [] }
    case 'extract_covariates':
      return settings.extract_claims.enabled ? chat(settings.extract_claims.completion_model_id) : chat(null)
    case 'create_community_reports':
      return chat(settings.community_reports.completion_model_id)
    case 'create_community_reports_text': {
      const id = settings.community_reports.completion_model_id
      return chat(id !== null && Object.hasOwn(settings.completion_models, id) ? id : null)
    }
    case 'generate_text_embeddings':
      return { chat: [], embedding: [settings.embed_text.embedding_model_id] }
    default:
      return { chat: [], embedding: [] }
  }
}

export function mergeModelsUsed(list: readonly ModelsUsed[]): ModelsUsed {
  return { chat: unique(list.flatMap((m) => m.chat)), embedding: unique(list.flatMap((m) => m.embedding)) }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}
