/**
 * Typed edges from the chat model, one call per batch of text units (labelled by their
 * human_readable_id). The reply is a JSON object with an `edges` list; each edge is validated on
 * its own. A batch whose call still fails after the LLM layer's retries, or whose reply has no
 * `edges` list, is skipped and reported: typed edges are an extra, never a reason to fail the index.
 */
import { LlmError } from '../../../errors.js'
import { formatPrompt } from '../../../prompts/prompt-template.js'
import type { ChatModel } from '../../../llm/types.js'
import type { ChunkEdgeOrigin } from '../../../model/chunk-edges.js'
import { mapBounded } from '../../../llm/bounded-map.js'
import type { ChunkUnit, DraftEdge } from './types.js'
import { unitLabel, validateEdges, type DropReason } from './validate-edges.js'

export interface LlmEdgeOptions {
  /** The prompt template with {input_text}. */
  prompt: string
  origin: Extract<ChunkEdgeOrigin, 'llm' | 'cross_document'>
  concurrency: number
}

export interface LlmEdgeServices {
  chat: ChatModel
  signal?: AbortSignal
  onBatchDone?: () => void
}

export interface FailedBatch {
  /** `units 3-7` (labels of the batch's first and last unit). */
  batch: string
  reason: string
}

export interface LlmEdgeResult {
  edges: DraftEdge[]
  dropped: DropReason[]
  failures: FailedBatch[]
  calls: number
}

/** The text units of a batch as the prompt shows them. */
export function renderBatch(batch: readonly ChunkUnit[]): string {
  return batch.map((u) => `----- unit ${unitLabel(u)} -----\n${u.text.trim()}\n`).join('\n')
}

export async function llmEdges(
  batches: readonly ChunkUnit[][],
  options: LlmEdgeOptions,
  services: LlmEdgeServices,
): Promise<LlmEdgeResult> {
  const outcomes = await mapBounded(batches, options.concurrency, async (batch) => {
    try {
      return await requestBatch(batch, options, services)
    } finally {
      services.onBatchDone?.()
    }
  })
  const result: LlmEdgeResult = { edges: [], dropped: [], failures: [], calls: batches.length }
  outcomes.forEach((outcome, i) => {
    if ('reason' in outcome) result.failures.push({ batch: batchName(batches[i]!), reason: outcome.reason })
    else {
      result.edges.push(...outcome.edges)
      result.dropped.push(...outcome.dropped)
    }
  })
  return result
}

async function requestBatch(
  batch: readonly ChunkUnit[],
  options: LlmEdgeOptions,
  services: LlmEdgeServices,
): Promise<{ edges: DraftEdge[]; dropped: DropReason[] } | { reason: string }> {
  const content = formatPrompt(options.prompt, { input_text: renderBatch(batch) })
  try {
    const reply = await services.chat.complete({
      messages: [{ role: 'user', content }],
      responseFormat: { type: 'json_object' },
      ...(services.signal === undefined ? {} : { signal: services.signal }),
    })
    const edges = (reply.json as Record<string, unknown> | undefined)?.edges
    if (!Array.isArray(edges)) return { reason: 'the reply has no "edges" list' }
    return validateEdges(edges, batch, options.origin)
  } catch (error) {
    if (!(error instanceof LlmError)) throw error
    return { reason: error.message }
  }
}

function batchName(batch: readonly ChunkUnit[]): string {
  return `units ${batch.map(unitLabel).join(',')}`
}
