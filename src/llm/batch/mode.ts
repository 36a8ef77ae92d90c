/**
 * Batch mode of a run: one BatchQueue per model (shared by every workflow that calls it, as the
 * rate limiter is in synchronous mode), its state kept under the run's saved work, and the figures
 * for the progress line.
 */
import type { Logger } from '../../logger.js'
import type { KeyValueStore } from '../../storage/key-value-store.js'
import type { ModelOptions } from '../settings.js'
import { batchApiFor } from './providers.js'
import { type BatchProgress, BatchQueue } from './queue.js'
import { BatchState } from './state.js'

export interface BatchModeOptions {
  /** Where the batch state lives (a folder of the run's work generation); one partition per model. */
  store: KeyValueStore
  /** That folder, for messages. */
  location: string
  /** Whether a model is to be batched (`--batch`, or `batch: true` in its settings). */
  enabled(options: ModelOptions): boolean
  pollMs: number
  collectMs: number
  noWait: boolean
  /** `--batch-fallback sync`: a request a batch did not answer usably is retried synchronously. */
  fallback: boolean
  log?: Logger
  onChange?: () => void
  /** Ctrl-C: the batches are left running (the next run collects them) and their callers stop at once. */
  stop?: AbortSignal
}

export interface BatchMode {
  readonly fallback: boolean
  /** The model's queue; undefined when it is not batched or its provider has no Batch API (it runs synchronously). */
  queueFor(options: ModelOptions): BatchQueue | undefined
  /** `completion_models.<id>` / `embedding_models.<id>` of the models whose calls are batched. */
  batchedModels(): string[]
  /** Summed over the models' queues. */
  progress(): BatchProgress
  /** Stops every queue's timers (the process can end). */
  close(): void
}

export function createBatchMode(options: BatchModeOptions): BatchMode {
  const queues = new Map<string, BatchQueue | undefined>()
  options.stop?.addEventListener('abort', () => {
    for (const queue of queues.values()) queue?.close(options.stop?.reason)
  })
  return {
    fallback: options.fallback,
    queueFor(model) {
      if (queues.has(model.settingsPath)) return queues.get(model.settingsPath)
      const api = options.enabled(model) ? batchApiFor(model) : undefined
      if (options.enabled(model) && api === undefined)
        options.log?.warn(
          `${model.settingsPath}: ${model.pool === undefined ? `${model.provider} has no batch API` : 'api_base is a list of servers'}; its calls are made synchronously`,
        )
      const queue =
        api === undefined
          ? undefined
          : new BatchQueue({
              api,
              state: new BatchState(
                options.store.child(model.settingsPath),
                `${options.location}/${model.settingsPath}`,
              ),
              modelRef: model.settingsPath,
              pollMs: options.pollMs,
              collectMs: options.collectMs,
              noWait: options.noWait,
              log: options.log,
              onChange: options.onChange,
            })
      queues.set(model.settingsPath, queue)
      return queue
    },
    batchedModels() {
      return [...queues].filter(([, queue]) => queue !== undefined).map(([path]) => path)
    },
    close() {
      for (const queue of queues.values()) queue?.close()
    },
    progress() {
      const total: BatchProgress = { submitted: 0, pending: 0, done: 0, linesSent: 0, linesAnswered: 0 }
      for (const queue of queues.values()) {
        if (queue === undefined) continue
        const p = queue.progress()
        for (const k of Object.keys(total) as Array<keyof BatchProgress>) total[k] += p[k]
      }
      return total
    },
  }
}
