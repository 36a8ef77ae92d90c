/**
 * The resume fingerprint of each planned workflow: its settings, the models it calls, the text of
 * its prompts and, for loading, the input files, chained onto the fingerprint of the one before.
 */
import type { ModelSettings, Settings } from '../config/schema.js'
import { VERSION } from '../version.js'
import { inputFilesFingerprint } from './input-fingerprint.js'
import { promptHashes } from './prompt-files.js'
import { chainFingerprint } from './resume.js'
import type { Workflow } from './workflow.js'
import { modelsUsedBy, type ModelsUsed } from './workflow-models.js'
import { WORKFLOWS, type WorkflowName } from './workflows/index.js'

export interface PlannedWorkflow {
  name: WorkflowName
  fingerprint: string
}

/** Reads every declared prompt, so a configured prompt file that is missing fails here, before any workflow runs. */
export async function fingerprintWorkflows(names: readonly WorkflowName[], settings: Settings): Promise<PlannedWorkflow[]> {
  const planned: PlannedWorkflow[] = []
  let previous = VERSION
  for (const name of names) {
    const workflow: Workflow = WORKFLOWS[name]
    previous = chainFingerprint(previous, name, {
      settings: workflow.fingerprint(settings),
      models: modelSettings(modelsUsedBy(name, settings), settings),
      prompts: promptHashes(workflow.prompts?.(settings) ?? []),
      external: name === 'load_input_documents' || name === 'load_update_documents' ? await inputFilesFingerprint(settings.input_storage.base_dir) : null,
    })
    planned.push({ name, fingerprint: previous })
  }
  return planned
}

/**
 * The entries of the models this workflow calls, so changing the embedding model re-runs only the
 * embeddings. Left out: the key (a secret) and what only changes how calls are made, not what they return.
 */
function modelSettings(used: ModelsUsed, settings: Settings): unknown {
  const relevant = (model: ModelSettings | undefined) => {
    if (model === undefined) return null
    const { api_key, retry, rate_limit, concurrent_requests, request_timeout, pricing, metrics, ...rest } = model
    return rest
  }
  return {
    chat: Object.fromEntries(used.chat.map((id) => [id, relevant(settings.completion_models[id])])),
    embedding: Object.fromEntries(used.embedding.map((id) => [id, relevant(settings.embedding_models[id])])),
  }
}
