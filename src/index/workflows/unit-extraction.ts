/**
 * The per-text-unit model step extract_graph and extract_covariates share: one chat model, every
 * base text unit (or a shard's slice of them) sent through the operation with a progress line, and
 * the bookkeeping (failed units, dropped records, calls) recorded in the workflow's stats.
 */
import type { ChatModel } from '../../llm/types.js'
import { readPrompt, type PromptFile } from '../../prompts/prompt-files.js'
import { BASE_TEXT_UNITS, type BaseTextUnitRow } from '../../model/text-units.js'
import type { KeyValueStore } from '../../storage/key-value-store.js'
import type { ShardSlice, WorkflowContext, WorkflowResult } from '../workflow.js'
import { checkEmptyReplies } from '../operations/extract-graph/check.js'
import { recordExtraction, type ExtractionBookkeeping } from './extraction-stats.js'

export interface UnitExtractionStep<R extends ExtractionBookkeeping> {
  /** The workflow, for log lines. */
  workflow: string
  /** The progress line's label (`graph extraction`). */
  label: string
  /** What one parsed record is called in log lines (`record`, `claim`). */
  recordNoun: string
  model: { id: string; keyPath: string; cachePartition: string }
  extract(
    units: readonly BaseTextUnitRow[],
    services: { chat: ChatModel; signal: AbortSignal; onUnitDone: () => void; cache: KeyValueStore },
  ): Promise<R>
}

/** Runs the step over every base text unit, or over `shard`'s slice of them. */
export async function extractFromUnits<R extends ExtractionBookkeeping>(
  ctx: WorkflowContext,
  step: UnitExtractionStep<R>,
  shard?: ShardSlice,
): Promise<R> {
  const { id, keyPath, cachePartition } = step.model
  const chat = ctx.models.chat(id, { keyPath, cachePartition })
  const all = await ctx.tables.read(BASE_TEXT_UNITS)
  const units = shard === undefined ? all : shard.select(all)
  const progress = ctx.progress(step.label, units.length)
  const services = { chat, signal: ctx.signal, onUnitDone: () => progress.tick(), cache: ctx.cache }
  const result = await step.extract(units, services)
  progress.done()
  recordExtraction(ctx, step.workflow, result, step.recordNoun)
  checkEmptyReplies(step.workflow, result)
  return result
}

/**
 * A shard's part of the step: the calls are made (and cached) and their failures recorded; the
 * records themselves are left to the full run, which reads the same replies from the cache.
 */
export async function prefetchUnits<R extends ExtractionBookkeeping & { attempted: number }>(
  ctx: WorkflowContext,
  step: UnitExtractionStep<R>,
  shard: ShardSlice,
): Promise<WorkflowResult> {
  const result = await extractFromUnits(ctx, step, shard)
  const { attempted, failures, emptyReplies } = result
  return {
    summary: { text_units: attempted, failed_chunks: failures.length, empty_replies: emptyReplies?.length ?? 0 },
  }
}

/** The three prompts of an extraction with gleanings: the request, "continue" and "more?". */
export function readGleaningPrompts(files: { extract: PromptFile; continuation: PromptFile; loop: PromptFile }): {
  prompt: string
  continuationPrompt: string
  loopPrompt: string
} {
  return {
    prompt: readPrompt(files.extract),
    continuationPrompt: readPrompt(files.continuation),
    loopPrompt: readPrompt(files.loop),
  }
}
