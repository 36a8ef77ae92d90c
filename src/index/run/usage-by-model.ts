/** Usage per configured model over the whole run (the preflight check included), for the end-of-run summary. */
import type { Settings } from '../../config/schema.js'
import type { ModelUsage } from '../../llm/types.js'
import { addUsage, emptyUsage } from './run-stats.js'

export interface ModelUsageLine {
  /** The settings id (`default_completion_model`). */
  id: string
  /** The provider's model name (`gpt-4.1`). */
  model: string
  usage: ModelUsage
}

/** workflow → model id → usage, summed per model; models that were never called are left out. */
export function usageByModel(
  settings: Settings,
  byWorkflow: Readonly<Record<string, Readonly<Record<string, ModelUsage>>>>,
): ModelUsageLine[] {
  const totals = new Map<string, ModelUsage>()
  for (const byModel of Object.values(byWorkflow)) {
    for (const [id, usage] of Object.entries(byModel)) totals.set(id, addUsage(totals.get(id) ?? emptyUsage(), usage))
  }
  return [...totals]
    .filter(([, usage]) => usage.calls > 0)
    .map(([id, usage]) => {
      const entry = settings.completion_models[id] ?? settings.embedding_models[id]
      return { id, model: entry?.model ?? id, usage }
    })
}

/** workflow → model id → usage, summed per workflow (the preflight check left out); workflows that called no model are left out. */
export function usageByWorkflow(
  byWorkflow: Readonly<Record<string, Readonly<Record<string, ModelUsage>>>>,
): Array<{ workflow: string; usage: ModelUsage }> {
  return Object.entries(byWorkflow)
    .filter(([workflow]) => workflow !== 'preflight')
    .map(([workflow, byModel]) => ({ workflow, usage: Object.values(byModel).reduce(addUsage, emptyUsage()) }))
    .filter(({ usage }) => usage.calls > 0)
}
