/**
 * Typed edges from the chat model, one call per batch of text units (labelled by their
 * human_readable_id). The reply is a JSON object with an `edges` list; each edge is validated on
 * its own. A batch whose call still fails after the LLM layer's retries, or whose reply has no
 * `edges` list, is skipped and reported: typed edges are an extra, never a reason to fail the index.
 */
import { LlmError } from '../../../errors.js'
import { AttemptFailure } from '../../../llm/failure.js'
import { formatPrompt } from '../../../prompts/prompt-template.js'
import type { ChatModel } from '../../../llm/types.js'
import type { ChunkEdgeOrigin } from '../../../model/chunk-edges.js'
import { mapBounded } from '../../../storage/bounded-map.js'
import { truncateToTokens } from './truncate.js'
import type { ChunkUnit, DraftEdge } from './types.js'
import { unitLabel, validateEdges, type DropReason } from './validate-edges.js'

export interface LlmEdgeOptions {
  /** The prompt template with {input_text}. */
  prompt: string
  origin: Extract<ChunkEdgeOrigin, 'llm' | 'cross_document'>
  concurrency: number
  /** Sent as the call's temperature (undefined = the model's call_args). */
  temperature?: number
  /** Tokens of each unit shown to the model (0 = whole units). */
  unitMaxTokens?: number
  /** Weight of the step_next edges put in for a reply that cannot be parsed (0 = none: the batch fails). */
  fallbackConfidence?: number
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
  /** Batches whose unparsable reply was replaced by step_next edges (relation_parse_fallback). */
  fallbacks: FailedBatch[]
  calls: number
}

/** The text units of a batch as the prompt shows them. */
export function renderBatch(batch: readonly ChunkUnit[], cut: (text: string) => string = (t) => t): string {
  return batch.map((u) => `----- unit ${unitLabel(u)} -----\n${cut(u.text.trim())}\n`).join('\n')
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
  const result: LlmEdgeResult = { edges: [], dropped: [], failures: [], fallbacks: [], calls: batches.length }
  const fallbackConfidence = options.fallbackConfidence ?? 0
  outcomes.forEach((outcome, i) => {
    const batch = batches[i]!
    if ('reason' in outcome && outcome.unparsable && fallbackConfidence > 0) {
      result.fallbacks.push({ batch: batchName(batch), reason: outcome.reason })
      result.edges.push(...stepNextFallback(batch, fallbackConfidence, options.origin))
    } else if ('reason' in outcome) result.failures.push({ batch: batchName(batch), reason: outcome.reason })
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
): Promise<{ edges: DraftEdge[]; dropped: DropReason[] } | { reason: string; unparsable: boolean }> {
  const maxTokens = options.unitMaxTokens ?? 0
  const cut = (text: string) => truncateToTokens(text, maxTokens, (t) => services.chat.countTokens(t))
  const content = formatPrompt(options.prompt, { input_text: renderBatch(batch, cut) })
  try {
    const reply = await services.chat.complete({
      messages: [{ role: 'user', content }],
      responseFormat: { type: 'json_object' },
      ...(options.temperature === undefined ? {} : { callArgs: { temperature: options.temperature } }),
      ...(services.signal === undefined ? {} : { signal: services.signal }),
    })
    const edges = (reply.json as Record<string, unknown> | undefined)?.edges
    if (!Array.isArray(edges)) return { reason: 'the reply has no "edges" list', unparsable: true }
    return validateEdges(edges, batch, options.origin)
  } catch (error) {
    if (!(error instanceof LlmError)) throw error
    // Still not JSON after the retries: a parse failure. Anything else (HTTP, timeouts) is not.
    const unparsable = error.cause instanceof AttemptFailure && error.cause.kind === 'invalid_reply'
    return { reason: error.message, unparsable }
  }
}

/**
 * The design's parse fallback: each unit of the batch → the next one of the same document
 * (batches never cross documents, but cross-document batches do), as step_next at `confidence`.
 */
function stepNextFallback(
  batch: readonly ChunkUnit[],
  confidence: number,
  origin: LlmEdgeOptions['origin'],
): DraftEdge[] {
  return batch.slice(1).flatMap((unit, i) => {
    const previous = batch[i]!
    if (previous.document_id !== unit.document_id) return []
    const description = 'relation_parse_fallback: the reply could not be parsed'
    return [{ source: previous.id, target: unit.id, relation: 'step_next', weight: confidence, description, origin }]
  })
}

function batchName(batch: readonly ChunkUnit[]): string {
  return `units ${batch.map(unitLabel).join(',')}`
}
