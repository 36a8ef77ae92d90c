/**
 * Dry-run estimate of LLM calls, tokens and cost per workflow, before any paid call. Each workflow
 * declares its part: what it adds to the guessed graph (`guessGraph`), its usage (`estimate`, from
 * its own prompts and settings) and the models that price it (`models`). The heuristics are in
 * operations/estimate-usage.ts; this file reads the prompt files and adds the figures up.
 */
import type { Settings } from '../../config/schema.js'
import type { TokenUsage } from '../../llm/types.js'
import { formatPrompt } from '../../prompts/prompt-template.js'
import { readPrompt } from '../../prompts/prompt-files.js'
import {
  add,
  guessCommunities,
  ZERO,
  type ChunkFigures,
  type GuessedGraph,
  type ReportFigures,
} from '../operations/estimate-usage.js'
import type { EstimateContext, Workflow } from '../workflow.js'
import { WORKFLOWS, type WorkflowName } from '../workflows/index.js'

export interface EstimateInput extends ChunkFigures {
  /** The workflows that will run (already-finished ones left out). */
  workflows: readonly WorkflowName[]
  /** The whole planned pipeline, finished ones included: they still build the graph the others work on (default: `workflows`). */
  planned?: readonly WorkflowName[]
  settings: Settings
  /** An update's reports measured on the previous index; absent for a full index. */
  reports?: ReportFigures
  /** Token count with the chat model's tokenizer (prompt sizes). */
  countTokens: (text: string) => number
  /** Cost in USD of a workflow's usage, from the LLM layer's price table; undefined when unknown. */
  cost?: (workflow: WorkflowName, kind: 'chat' | 'embedding', usage: TokenUsage) => number | undefined
}

interface WorkflowEstimate {
  workflow: string
  calls: number
  promptTokens: number
  completionTokens: number
  /** null when no price is known for the model. */
  costUsd: number | null
}

export interface CostEstimate {
  workflows: WorkflowEstimate[]
  total: Omit<WorkflowEstimate, 'workflow'>
  /** The guessed graph size the figures rest on. */
  assumed: { entities: number; relationships: number; claims: number; communities: number }
}

/** The graph the planned workflows are expected to build; communities follow from its entities. */
function guessGraph(input: EstimateInput): GuessedGraph {
  const graph: GuessedGraph = {
    entityRecords: 0,
    relationshipRecords: 0,
    entities: 0,
    relationships: 0,
    claims: 0,
    communities: 0,
  }
  for (const name of input.planned ?? input.workflows)
    Object.assign(graph, WORKFLOWS[name].guessGraph?.(input.settings, input))
  return { ...graph, communities: guessCommunities(graph.entities) }
}

function estimateContext(input: EstimateInput, graph: GuessedGraph): EstimateContext {
  return {
    settings: input.settings,
    chunks: input.chunks,
    chunkTokens: input.chunkTokens,
    ...(input.chunksPerDocument === undefined ? {} : { chunksPerDocument: input.chunksPerDocument }),
    graph,
    reports: input.reports,
    promptTokens: (file, values) => input.countTokens(formatPrompt(readPrompt(file), values)),
  }
}

/** A workflow's usage is priced with the first chat model it declares, else its embedding model. */
function kindOf(workflow: Workflow, settings: Settings): 'chat' | 'embedding' {
  return workflow.models(settings).chat.length > 0 ? 'chat' : 'embedding'
}

/** Estimates the LLM usage of each workflow that calls a model; workflows without calls are left out. */
export function estimateIndexCost(input: EstimateInput): CostEstimate {
  const graph = guessGraph(input)
  const ctx = estimateContext(input, graph)
  const workflows: WorkflowEstimate[] = []
  for (const name of input.workflows) {
    const workflow: Workflow = WORKFLOWS[name]
    const raw = workflow.estimate?.(ctx)
    if (raw === undefined || raw.calls === 0) continue
    const usage = {
      calls: Math.round(raw.calls),
      promptTokens: Math.round(raw.promptTokens),
      completionTokens: Math.round(raw.completionTokens),
    }
    const cost = input.cost?.(name, kindOf(workflow, input.settings), {
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
    })
    workflows.push({ workflow: name, ...usage, costUsd: cost ?? null })
  }
  const sum = workflows.reduce((u, w) => add(u, w), ZERO)
  const costs = workflows.map((w) => w.costUsd)
  const total = {
    ...sum,
    costUsd: costs.some((c) => c === null) ? null : costs.reduce<number>((a, c) => a + (c ?? 0), 0),
  }
  const assumed = {
    entities: Math.round(graph.entities),
    relationships: Math.round(graph.relationships),
    claims: Math.round(graph.claims),
    communities: Math.round(graph.communities),
  }
  return { workflows, total, assumed }
}
