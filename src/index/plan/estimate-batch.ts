/**
 * The dry run's batch figures: the estimate priced as a batch run would pay it (the workflows of
 * batched models at the batch price, the rest at the synchronous one), and the models that would
 * run synchronously because their provider sells no batches.
 */
import type { ModelSettings, Settings } from '../../config/schema.js'
import { BATCH_PRICE_FACTOR, hasBatchApi } from '../../llm/batch/providers.js'
import { resolveProvider } from '../../llm/providers.js'
import { WORKFLOWS, type WorkflowName } from '../workflows/index.js'
import type { CostEstimate } from './estimate-cost.js'

export interface BatchPricing {
  /** `--batch`, or a model with `batch: true`: the run would batch. */
  batchRun: boolean
  /** Over the workflows with a known price. */
  syncUsd: number
  batchUsd: number
  /** Some workflow's model has no known price: the figures cover the others. */
  partial: boolean
  /** Models the run would batch but cannot (no Batch API, or a pool of servers): they run synchronously. */
  synchronous: Array<{ model: string; reason: string }>
}

export function batchPricing(settings: Settings, estimate: CostEstimate, all: boolean): BatchPricing {
  const batchRun = all || [...modelEntries(settings)].some(([, entry]) => entry.batch)
  const synchronous = new Map<string, string>()
  let batchUsd = 0
  let syncUsd = 0
  for (const row of estimate.workflows) {
    const path = pricingModel(settings, row.workflow as WorkflowName)
    const entry = path === undefined ? undefined : modelEntries(settings).get(path)
    if (entry === undefined) {
      batchUsd += row.costUsd ?? 0
      syncUsd += row.costUsd ?? 0
      continue
    }
    const provider = providerOf(entry)
    const kind = path!.startsWith('embedding_models.') ? 'embedding' : 'chat'
    const sellsBatches = hasBatchApi(provider, kind) && !Array.isArray(entry.api_base)
    // In a batch run the models it batches; otherwise what `--batch` would batch.
    const batched = sellsBatches && (batchRun ? all || entry.batch : true)
    const reason = Array.isArray(entry.api_base) ? 'api_base is a list of servers' : `${provider}: no batch API`
    if (!sellsBatches && (all || entry.batch)) synchronous.set(path!, reason)
    batchUsd += (row.costUsd ?? 0) * (batched ? BATCH_PRICE_FACTOR : 1)
    syncUsd += row.costUsd ?? 0
  }
  return {
    batchRun,
    syncUsd,
    batchUsd,
    partial: estimate.workflows.some((w) => w.costUsd === null),
    synchronous: [...synchronous].map(([model, reason]) => ({ model, reason })),
  }
}

/** The model that prices a workflow's estimate (as estimate-run.ts prices it): its first chat model, else its embedding model. */
function pricingModel(settings: Settings, workflow: WorkflowName): string | undefined {
  const used = WORKFLOWS[workflow].models(settings)
  if (used.chat[0] !== undefined) return `completion_models.${used.chat[0]}`
  return used.embedding[0] === undefined ? undefined : `embedding_models.${used.embedding[0]}`
}

function modelEntries(settings: Settings): Map<string, ModelSettings> {
  return new Map([
    ...Object.entries(settings.completion_models).map(([id, m]) => [`completion_models.${id}`, m] as const),
    ...Object.entries(settings.embedding_models).map(([id, m]) => [`embedding_models.${id}`, m] as const),
  ])
}

function providerOf(entry: ModelSettings): string {
  return resolveProvider(entry.model_provider, entry.model, entry.api_base !== null).provider
}
