/**
 * Cost estimates for a planned run: chunk the inputs in memory (no model is called), then apply the
 * workflows' declared estimates with the configured models' tokenizers and prices.
 */
import type { ModelSettings, Settings } from '../../config/schema.js'
import { costUsd, priceOfModel } from '../../llm/pricing.js'
import { resolveProvider } from '../../llm/providers.js'
import { encodingForModel, getTokenizer } from '../../llm/tokenizer.js'
import type { ModelUsage } from '../../llm/types.js'
import { loadDocuments } from '../input/load-documents.js'
import { chunkDocuments } from '../operations/chunk-text.js'
import { chunksPerDocument, type ChunkFigures, type ReportFigures } from '../operations/estimate-usage.js'
import { WORKFLOWS, type WorkflowName } from '../workflows/index.js'
import { estimateIndexCost, type CostEstimate } from './estimate-cost.js'

/** Loads and chunks the inputs exactly as the pipeline would, without writing anything. */
export async function chunkFiguresFromInputs(
  settings: Settings,
  onWarning: (message: string) => void,
): Promise<ChunkFigures> {
  const { documents } = await loadDocuments(
    { ...settings.input, baseDir: settings.input_storage.base_dir },
    { onWarning, onNotice: onWarning },
  )
  const rows = chunkDocuments(documents, settings.chunking, getTokenizer(settings.chunking.encoding_model))
  return {
    chunks: rows.length,
    chunkTokens: rows.reduce((sum, r) => sum + r.n_tokens, 0),
    chunksPerDocument: chunksPerDocument(rows),
  }
}

/**
 * `planned` is the whole pipeline (finished workflows included), `workflows` the ones to estimate;
 * `reports`, for an update, the reports measured on the previous index.
 */
export function estimateWorkflows(
  settings: Settings,
  workflows: readonly WorkflowName[],
  figures: ChunkFigures,
  planned: readonly WorkflowName[] = workflows,
  reports?: ReportFigures,
): CostEstimate {
  const chatId = settings.extract_graph.completion_model_id
  const chatModel = settings.completion_models[chatId]
  const tokenizer = getTokenizer(
    chatModel ? encodingForModel(chatModel.model, chatModel.encoding_model) : 'cl100k_base',
  )
  return estimateIndexCost({
    workflows,
    planned,
    chunks: figures.chunks,
    chunkTokens: figures.chunkTokens,
    ...(figures.chunksPerDocument === undefined ? {} : { chunksPerDocument: figures.chunksPerDocument }),
    settings,
    reports,
    countTokens: (text) => tokenizer.count(text),
    cost: (workflow, kind, usage) => {
      const used = WORKFLOWS[workflow].models(settings)
      const id = kind === 'chat' ? used.chat[0] : used.embedding[0]
      const model =
        id === undefined ? undefined : (kind === 'chat' ? settings.completion_models : settings.embedding_models)[id]
      return model === undefined ? undefined : modelCost(model, usage.promptTokens, usage.completionTokens)
    },
  })
}

function modelCost(model: ModelSettings, promptTokens: number, completionTokens: number): number | undefined {
  const override = model.pricing
    ? { inputPer1m: model.pricing.input_per_1m, outputPer1m: model.pricing.output_per_1m }
    : undefined
  // Priced as the run meters it (priceOfModel): local runtimes (ollama, lm_studio, local) cost nothing.
  const apiBaseSet = model.api_base !== undefined && model.api_base !== null
  const { provider } = resolveProvider(model.model_provider, model.model, apiBaseSet)
  const price = priceOfModel(provider, model.model, override)
  return price === undefined ? undefined : costUsd(price, promptTokens, completionTokens)
}

export interface EstimateComparison {
  workflow: string
  estimated: { calls: number; promptTokens: number; completionTokens: number; costUsd: number | null }
  actual: { calls: number; promptTokens: number; completionTokens: number; costUsd: number }
}

/** The estimate next to what the run really used, per workflow (for stats.json). */
export function compareWithActual(
  estimate: CostEstimate,
  actual: Readonly<Record<string, Readonly<Record<string, ModelUsage>>>>,
): EstimateComparison[] {
  return estimate.workflows.map((e) => {
    const usages = Object.values(actual[e.workflow] ?? {})
    const sum = (pick: (u: ModelUsage) => number) => usages.reduce((total, u) => total + pick(u), 0)
    return {
      workflow: e.workflow,
      estimated: {
        calls: e.calls,
        promptTokens: e.promptTokens,
        completionTokens: e.completionTokens,
        costUsd: e.costUsd,
      },
      actual: {
        calls: sum((u) => u.calls),
        promptTokens: sum((u) => u.promptTokens),
        completionTokens: sum((u) => u.completionTokens),
        costUsd: sum((u) => u.costUsd),
      },
    }
  })
}
