/**
 * The resume fingerprint of each planned workflow: its settings, the models it calls, the text of
 * its prompts and, for loading, the input files, chained onto the fingerprint of the one before.
 */
import { createHash } from 'node:crypto'
import type { ModelSettings, Settings } from '../../config/schema.js'
import { VERSION } from '../../version.js'
import { promptHashes } from '../../prompts/prompt-files.js'
import type { ModelsUsed, Workflow } from '../workflow.js'
import { WORKFLOWS, type WorkflowName } from '../workflows/index.js'
import { relativeToRoot } from './root-relative.js'
import { canonicalJson } from '../../text/canonical-json.js'

export interface PlannedWorkflow {
  name: WorkflowName
  fingerprint: string
}

/** Reads every declared prompt, so a configured prompt file that is missing fails here, before any workflow runs. */
export async function fingerprintWorkflows(
  names: readonly WorkflowName[],
  settings: Settings,
): Promise<PlannedWorkflow[]> {
  const planned: PlannedWorkflow[] = []
  let previous = VERSION
  for (const name of names) {
    const workflow: Workflow = WORKFLOWS[name]
    previous = chainFingerprint(previous, name, {
      settings: relativeToRoot(workflow.fingerprint(settings), settings.root),
      models: modelSettings(workflow.models(settings), settings),
      prompts: promptHashes(workflow.prompts(settings)),
      external: (await workflow.external?.(settings)) ?? null,
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

export function chainFingerprint(previous: string, workflow: string, parts: unknown): string {
  return createHash('sha256')
    .update(previous)
    .update('\u0000')
    .update(workflow)
    .update('\u0000')
    .update(canonicalJson(parts))
    .digest('hex')
}
