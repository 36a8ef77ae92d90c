/** stats.json: the reference's keys plus per-workflow rows, counters, failures and LLM usage. */
import { join } from 'node:path'
import type { EndpointStats } from '../../llm/index.js'
import type { ModelUsage } from '../../llm/types.js'
import { writeFileAtomic } from '../../storage/atomic-write.js'
import type { WorkflowStats } from '../workflow.js'

export interface WorkflowStatsEntry {
  /**
   * succeeded_with_failures: failed items within the failure budget; the next run retries the workflow.
   * interrupted: stopped by Ctrl-C / SIGTERM (set by recordInterruption in interrupt.ts).
   */
  status: 'succeeded' | 'succeeded_with_failures' | 'failed' | 'interrupted'
  /** Why it failed (status failed). */
  error?: string
  overall: number
  peak_memory_bytes: number
  memory_delta_bytes: number
  skipped: boolean
  rows: Record<string, number>
  counters: Record<string, number>
  failures: { item: string; reason: string }[]
  warnings: string[]
  summary: Record<string, number | string | boolean>
  llm: Record<string, ModelUsage>
}

export interface RunStatsFile {
  total_runtime: number
  num_documents: number
  update_documents: number
  input_load_time: number
  workflows: Record<string, WorkflowStatsEntry>
  /** The one-call-per-model connectivity check before the first workflow (absent when skipped). */
  preflight?: { llm: Record<string, ModelUsage> }
  llm_totals: ModelUsage
  /** Models with several endpoints (`api_base` as a list): calls, failures and state of each. */
  endpoints?: Record<string, EndpointStats[]>
  estimate?: unknown
  /** Batch mode (`--batch`): the batches of this run and what their discount saved (see batch-run.ts). */
  batch?: BatchStats
  /** Present only when the run was interrupted (Ctrl-C / SIGTERM). */
  status?: 'interrupted'
  /** `graphrag update`: which documents changed, how many model answers came from the previous index, where its backup is. */
  update?: {
    added: string[]
    edited: string[]
    deleted: string[]
    unchanged: number
    reused_model_replies: number
    backup: string
  }
}

export interface BatchStats {
  /** `completion_models.<id>` / `embedding_models.<id>` of the batched models. */
  models: string[]
  batches_submitted: number
  batches_collected: number
  lines_sent: number
  lines_answered: number
  /** What the batched models' calls cost at the batch price. */
  cost_usd: number
  /** What the same tokens would have cost synchronously. */
  sync_cost_usd: number
  saved_usd: number
}

export function emptyUsage(): ModelUsage {
  return {
    calls: 0,
    cacheHits: 0,
    retries: 0,
    failures: 0,
    promptTokens: 0,
    completionTokens: 0,
    wallSeconds: 0,
    costUsd: 0,
    unpricedTokens: 0,
  }
}

export function addUsage(into: ModelUsage, add: ModelUsage): ModelUsage {
  return {
    calls: into.calls + add.calls,
    cacheHits: into.cacheHits + add.cacheHits,
    retries: into.retries + add.retries,
    failures: into.failures + add.failures,
    promptTokens: into.promptTokens + add.promptTokens,
    completionTokens: into.completionTokens + add.completionTokens,
    wallSeconds: into.wallSeconds + add.wallSeconds,
    costUsd: into.costUsd + add.costUsd,
    unpricedTokens: into.unpricedTokens + add.unpricedTokens,
  }
}

/** What this run used: the preflight check and every workflow that ran (not those resumed from an earlier run). */
export function totalUsage(stats: Pick<RunStatsFile, 'preflight' | 'workflows'>): ModelUsage {
  const ran = Object.values(stats.workflows).filter((w) => !w.skipped)
  const usages = [...Object.values(stats.preflight?.llm ?? {}), ...ran.flatMap((w) => Object.values(w.llm))]
  return usages.reduce(addUsage, emptyUsage())
}

/** Collects what one workflow reports while it runs. */
export class WorkflowStatsRecorder implements WorkflowStats {
  readonly counters: Record<string, number> = {}
  readonly failures: { item: string; reason: string }[] = []
  readonly warnings: string[] = []

  constructor(private readonly onWarning: (message: string) => void) {}

  count(name: string, amount = 1): void {
    this.counters[name] = (this.counters[name] ?? 0) + amount
  }

  failure(item: string, reason: string): void {
    this.failures.push({ item, reason })
  }

  warning(message: string): void {
    this.warnings.push(message)
    this.onWarning(message)
  }
}

export async function writeStatsFile(outputDir: string, stats: RunStatsFile): Promise<void> {
  await writeFileAtomic(join(outputDir, 'stats.json'), `${JSON.stringify(stats, null, 4)}\n`)
}
