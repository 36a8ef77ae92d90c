/**
 * What a workflow's output depends on besides its input tables: its settings (paths relative to the
 * project), the settings of the models it calls and the text of its prompts. The resume fingerprint
 * chains it; a workflow may also key records of its own work by it (extract_graph's unit records).
 */
import type { ModelSettings, Settings } from '../../config/schema.js'
import { promptHashes } from '../../prompts/prompt-files.js'
import type { ModelsUsed, Workflow } from '../workflow.js'
import { relativeToRoot } from './root-relative.js'

export function workflowMaterial(
  workflow: Workflow,
  settings: Settings,
): { settings: unknown; models: unknown; prompts: Record<string, string> } {
  return {
    settings: relativeToRoot(workflow.fingerprint(settings), settings.root),
    models: modelSettings(workflow.models(settings), settings),
    prompts: promptHashes(workflow.prompts(settings)),
  }
}

/**
 * The entries of the models this workflow calls, so changing the embedding model re-runs only the
 * embeddings. Left out: the key (a secret) and what only changes how calls are made, not what they return.
 */
function modelSettings(used: ModelsUsed, settings: Settings): unknown {
  const relevant = (model: ModelSettings | undefined) => {
    if (model === undefined) return null
    // api_base too: the same model served from another host or port gives the same answers (and cache hits).
    const { api_key, api_base, retry, rate_limit, concurrent_requests, request_timeout, pricing, metrics, ...rest } =
      model
    // batch: a batch answers as the synchronous call would (docs/batch.md).
    const { batch, ...answers } = rest
    return answers
  }
  return {
    chat: Object.fromEntries(used.chat.map((id) => [id, relevant(settings.completion_models[id])])),
    embedding: Object.fromEntries(used.embedding.map((id) => [id, relevant(settings.embedding_models[id])])),
  }
}
