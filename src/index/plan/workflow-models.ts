/** Which configured models a list of workflows will call, from their own declarations, for the preflight check. */
import type { Settings } from '../../config/schema.js'
import type { ModelsUsed } from '../workflow.js'
import { WORKFLOWS, type WorkflowName } from '../workflows/index.js'

export function modelsUsedBy(names: readonly WorkflowName[], settings: Settings): ModelsUsed {
  const used = names.map((name) => WORKFLOWS[name].models(settings))
  return { chat: unique(used.flatMap((m) => m.chat)), embedding: unique(used.flatMap((m) => m.embedding)) }
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)]
}
