/**
 * Batch mode of an index run (`--batch`, or `batch: true` on a model): the BatchMode the model
 * registry builds its batched models with, its state kept in the run's work generation (so a
 * `--no-wait` run, a kill or a Ctrl-C leaves it where the next run, on any machine sharing the
 * store, finds it), and the settings the workflows run with.
 */
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Settings } from '../../config/schema.js'
import { ConfigError } from '../../errors.js'
import { type BatchMode, createBatchMode } from '../../llm/batch/mode.js'
import { BATCH_PRICE_FACTOR } from '../../llm/batch/providers.js'
import type { ModelUsage } from '../../llm/types.js'
import type { Logger } from '../../logger.js'
import { FileKeyValueStore } from '../../storage/key-value-store.js'
import type { BatchStats } from './run-stats.js'

export interface BatchRunOptions {
  /** `--batch`: every model with a Batch API is batched (else only those with `batch: true`). */
  all?: boolean
  /** `--no-wait`: submit, poll once, and stop with the batches still running (exit code 75). */
  noWait?: boolean
  /** `--batch-fallback sync`: a request a batch did not answer usably is retried synchronously, not in the next batch. */
  fallback?: 'batch' | 'sync'
}

/** The work generation's folder of batch state (ids, the keys each batch holds, collected lines). */
const BATCH_FOLDER = '.batches'

const DEFAULT_POLL_MS = 30_000
const DEFAULT_COLLECT_MS = 250

/**
 * A workflow step's calls are collected while none has come for the collect tick; the runner's own
 * bound on calls in flight (concurrent_requests) would cut a step into many batches, so batch
 * mode lifts it to the most lines a batch takes.
 */
const BATCH_CONCURRENCY = 50_000

export function batchModeFor(
  settings: Settings,
  options: BatchRunOptions | undefined,
  context: {
    env: Readonly<Record<string, string | undefined>>
    log: Logger
    checkpoint: () => void
    /** Aborted on Ctrl-C (Interruption.requestedSignal). */
    stop?: AbortSignal
  },
): BatchMode | undefined {
  const batched = (group: 'completion_models' | 'embedding_models', id: string) =>
    options?.all === true || settings[group][id]?.batch === true
  const any = [
    ...Object.keys(settings.completion_models).map((id) => batched('completion_models', id)),
    ...Object.keys(settings.embedding_models).map((id) => batched('embedding_models', id)),
  ].some(Boolean)
  if (!any && options?.noWait === true)
    throw new ConfigError('--no-wait: nothing is batched; add --batch (or batch: true on a model)')
  if (!any) return undefined
  const location = join(settings.output_storage.base_dir, BATCH_FOLDER)
  return createBatchMode({
    store: new FileKeyValueStore(location),
    location,
    enabled: (model) => {
      const [group, id] = model.settingsPath.split('.') as ['completion_models' | 'embedding_models', string]
      return batched(group, id)
    },
    pollMs: envMs(context.env, 'GRAPHRAG_BATCH_POLL_MS', DEFAULT_POLL_MS),
    collectMs: envMs(context.env, 'GRAPHRAG_BATCH_COLLECT_MS', DEFAULT_COLLECT_MS),
    noWait: options?.noWait === true,
    fallback: options?.fallback === 'sync',
    log: context.log,
    onChange: context.checkpoint,
    stop: context.stop,
  })
}

/** The settings the workflows see in batch mode: no bound on calls issued together. */
export function batchSettings(settings: Settings): Settings {
  return { ...settings, concurrent_requests: BATCH_CONCURRENCY }
}

/**
 * A run without batch mode that finds batches an earlier `--batch` run left running: they are paid
 * for, and only a batch run collects them, so the run says so (undefined when there are none).
 */
export async function uncollectedBatchesNotice(outputDir: string): Promise<string | undefined> {
  const folder = join(outputDir, BATCH_FOLDER)
  const models = await readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return []
    throw error
  })
  let batches = 0
  for (const model of models) {
    const text = await readFile(join(folder, model, 'state.json'), 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return '{}'
      throw error
    })
    batches += savedBatchCount(text)
  }
  if (batches === 0) return undefined
  return `${batches} ${batches === 1 ? 'batch' : 'batches'} submitted by an earlier --batch run ${batches === 1 ? 'is' : 'are'} not collected by this synchronous run (their answers are paid for): stop it and run with --batch to collect them`
}

/** The batches a saved state.json lists; a damaged one (a batch run reports it) counts none here. */
function savedBatchCount(text: string): number {
  try {
    const parsed = JSON.parse(text) as { batches?: unknown }
    return Array.isArray(parsed.batches) ? parsed.batches.length : 0
  } catch (error) {
    if (!(error instanceof SyntaxError)) throw error
    return 0
  }
}

/** A finished run needs none of it: the answers are in the cache and the index. */
export async function clearBatchState(outputDir: string): Promise<void> {
  await rm(join(outputDir, BATCH_FOLDER), { recursive: true, force: true })
}

/** The batches of the run and the discount: the batched models' workflow calls were metered at the batch price. */
export function batchStats(
  mode: BatchMode,
  usageByWorkflow: Readonly<Record<string, Readonly<Record<string, ModelUsage>>>>,
): BatchStats {
  const models = mode.batchedModels()
  const ids = new Set(models.map((path) => path.slice(path.indexOf('.') + 1)))
  let cost = 0
  for (const [workflow, byModel] of Object.entries(usageByWorkflow)) {
    if (workflow === 'preflight') continue
    for (const [id, usage] of Object.entries(byModel)) if (ids.has(id)) cost += usage.costUsd
  }
  const progress = mode.progress()
  const syncCost = cost / BATCH_PRICE_FACTOR
  return {
    models,
    batches_submitted: progress.submitted,
    batches_collected: progress.done,
    lines_sent: progress.linesSent,
    lines_answered: progress.linesAnswered,
    cost_usd: cost,
    sync_cost_usd: syncCost,
    saved_usd: syncCost - cost,
  }
}

function envMs(env: Readonly<Record<string, string | undefined>>, name: string, fallback: number): number {
  const text = env[name]
  if (text === undefined || text.trim() === '') return fallback
  const value = Number(text)
  if (!Number.isInteger(value) || value < 1)
    throw new ConfigError(`${name}: expected a whole number of milliseconds (1 or more), got "${text}"`)
  return value
}
