/** Runs one workflow: staged writes, progress, stats, usage and the resume record, on success and on failure. */
import { join } from 'node:path'
import type { Settings } from '../../config/schema.js'
import { WorkflowError } from '../../errors.js'
import type { Logger } from '../../logger.js'
import type { KeyValueStore } from '../../storage/key-value-store.js'
import { ParquetTableStore, type TableStore } from '../../storage/table-store.js'
import type { DecodedTableCache } from '../../storage/decoded-tables.js'
import type { DocumentChanges } from '../operations/document-changes.js'
import { type FatalErrorGuard, guardAgainstFatalErrors } from './fatal-model-errors.js'
import { type MemorySampler, sampleMemory } from './memory-sampler.js'
import type { ModelRegistry } from './models.js'
import type { Reporter } from './reporter.js'
import { tableHashes, writeResumeState, type ResumeRecord, type ResumeState } from './resume.js'
import {
  totalUsage,
  WorkflowStatsRecorder,
  writeStatsFile,
  type RunStatsFile,
  type WorkflowStatsEntry,
} from './run-stats.js'
import { StagedTableStore } from './staged-table-store.js'
import type { Clock, ProgressTicker, ShardSlice, Workflow, WorkflowContext, WorkflowResult } from '../workflow.js'
import { WORKFLOWS, type WorkflowName } from '../workflows/index.js'

export interface RunWorkflowDeps {
  settings: Settings
  outputDir: string
  cache: KeyValueStore
  /** The cache outlives this run, so a re-run answers the items that succeeded from it. */
  persistentCache: boolean
  registry: ModelRegistry
  log: Logger
  reporter: Reporter
  /** Mutated: the entry of this workflow is added. */
  stats: RunStatsFile
  /** Mutated: the record of this workflow is appended once it has finished. */
  state: ResumeState
  clock: Clock
  signal: AbortSignal
  verbose: boolean
  /** In update runs: the published index being brought up to date. */
  previousTables: TableStore | undefined
  /** Rows decoded earlier in the run, shared by its table stores (storage/decoded-tables.ts). */
  decoded?: DecodedTableCache
  /** In update runs: the documents the update adds, edits and deletes. */
  changes: DocumentChanges | undefined
  /**
   * Takes the resume record of a finished workflow (absent: appended to `state` and written at once).
   * Workflows running side by side hand theirs to a recorder that keeps them in plan order.
   */
  recordCompletion?: (record: ResumeRecord) => Promise<void>
  /** A sharded run (shard.ts): the workflow does only its slice's model work (`prefetch`). */
  shard?: ShardSlice
}

/** One workflow's run in progress: what it writes to, what it measures, and the guard over its model calls. */
interface WorkflowRun {
  name: WorkflowName
  fingerprint: string
  workflow: Workflow
  deps: RunWorkflowDeps
  target: ParquetTableStore
  tables: StagedTableStore
  recorder: WorkflowStatsRecorder
  guard: FatalErrorGuard
  started: number
  memory: MemorySampler
}

export async function runWorkflow(
  planned: { name: WorkflowName; fingerprint: string },
  deps: RunWorkflowDeps,
): Promise<{ stop: boolean }> {
  const run = startRun(planned, deps)
  const { name, workflow, tables, recorder, guard } = run
  const ctx: WorkflowContext = {
    settings: deps.settings,
    tables,
    previousTables: deps.previousTables,
    changes: deps.changes,
    cache: deps.cache,
    models: guard.models,
    log: deps.log,
    stats: recorder,
    clock: deps.clock,
    signal: guard.signal,
    progress: (label, total) => progressTicker(deps.reporter, name, label, total),
  }
  try {
    const result =
      deps.shard === undefined || workflow.prefetch === undefined
        ? await workflow.run(ctx)
        : await workflow.prefetch(ctx, deps.shard)
    return await recordSuccess(run, result)
  } catch (error) {
    throw await recordFailure(run, error)
  }
}

function startRun(planned: { name: WorkflowName; fingerprint: string }, deps: RunWorkflowDeps): WorkflowRun {
  const { name } = planned
  const target = new ParquetTableStore(deps.outputDir, 'wasm', deps.decoded)
  const recorder = new WorkflowStatsRecorder((message) => {
    deps.reporter.warning(message)
    deps.log.warn(`${name}: ${message}`)
  })
  const guard = guardAgainstFatalErrors(deps.registry.forWorkflow(name), deps.signal)
  deps.reporter.workflowStart(name)
  deps.log.info(`Starting workflow: ${name}`)
  return {
    name,
    fingerprint: planned.fingerprint,
    workflow: WORKFLOWS[name],
    deps,
    target,
    tables: new StagedTableStore(target, join(deps.outputDir, '.staging', name)),
    recorder,
    guard,
    started: performance.now(),
    memory: sampleMemory(),
  }
}

/** Publishes the staged tables, then writes the stats and the resume record and reports the end. */
async function recordSuccess(run: WorkflowRun, result: WorkflowResult): Promise<{ stop: boolean }> {
  const { name, workflow, deps, recorder } = run
  // The cache writes its entries in batches: the workflow's last ones go out before it counts as done.
  await deps.cache.flush()
  await run.tables.commit()
  const seconds = (performance.now() - run.started) / 1000
  deps.stats.workflows[name] = statsEntry(recorder, seconds, run.memory.stop(), {
    status: recorder.failures.length > 0 ? 'succeeded_with_failures' : 'succeeded',
    rows: { ...(result.rows ?? {}) },
    summary: { ...(result.summary ?? {}) },
    llm: deps.registry.usageByWorkflow()[name] ?? {},
  })
  deps.stats.llm_totals = totalUsage(deps.stats)
  if (workflow.countsDocuments === true) deps.stats.num_documents = result.rows?.documents ?? 0
  const record: ResumeRecord = {
    workflow: name,
    fingerprint: run.fingerprint,
    tables: await tableHashes(run.target),
    extended: [...(workflow.extendsTables ?? [])],
    failed_items: recorder.failures.length,
  }
  if (deps.recordCompletion !== undefined) await deps.recordCompletion(record)
  else {
    deps.state.completed.push(record)
    await writeResumeState(deps.outputDir, deps.state)
  }
  await writeStatsFile(deps.outputDir, deps.stats)
  logFailedItems(deps.log, name, recorder.failures)
  deps.log.info(`Workflow complete: ${name} (${seconds.toFixed(2)} s)`)
  deps.reporter.workflowEnd(name, {
    seconds,
    rows: result.rows ?? {},
    skipped: false,
    failures: recorder.failures.length,
  })
  return { stop: result.stop === true }
}

/** Keeps the paid replies, drops the staged tables, records the failure in the stats and returns the error to throw. */
async function recordFailure(run: WorkflowRun, error: unknown): Promise<WorkflowError> {
  const { name, deps, recorder } = run
  const memoryFigures = run.memory.stop()
  await keepCachedReplies(deps)
  await run.tables.discard()
  const fatal = run.guard.fatal()
  // After a rejected key every item fails the same way; a re-run would not help, so no retry hint.
  const failure = describeFailure(name, fatal ?? error, fatal === undefined ? recorder.failures.length : 0, deps)
  const seconds = (performance.now() - run.started) / 1000
  // Calls that were paid for count even though the workflow failed.
  const llm = deps.registry.usageByWorkflow()[name] ?? {}
  deps.stats.workflows[name] = statsEntry(recorder, seconds, memoryFigures, {
    status: 'failed',
    error: failure.message,
    rows: {},
    summary: {},
    llm,
  })
  deps.stats.llm_totals = totalUsage(deps.stats)
  await writeStatsFile(deps.outputDir, deps.stats)
  logFailedItems(deps.log, name, recorder.failures)
  deps.reporter.workflowFailed(name, failure.message)
  deps.log.error(
    `error running workflow ${name}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  )
  return failure
}

/** The replies paid for before a failure stay in the cache, so a re-run asks only for the failed items. */
async function keepCachedReplies(deps: RunWorkflowDeps): Promise<void> {
  try {
    await deps.cache.flush()
  } catch (flushError) {
    // The workflow's own error is the one reported; this one only costs the re-run some calls.
    deps.log.warn(`could not write the cache: ${flushError instanceof Error ? flushError.message : String(flushError)}`)
  }
}

function statsEntry(
  recorder: WorkflowStatsRecorder,
  seconds: number,
  memory: { peakBytes: number; deltaBytes: number },
  outcome: Pick<WorkflowStatsEntry, 'status' | 'error' | 'rows' | 'summary' | 'llm'>,
): WorkflowStatsEntry {
  return {
    status: outcome.status,
    ...(outcome.error === undefined ? {} : { error: outcome.error }),
    overall: seconds,
    peak_memory_bytes: memory.peakBytes,
    memory_delta_bytes: memory.deltaBytes,
    skipped: false,
    rows: outcome.rows,
    counters: recorder.counters,
    failures: recorder.failures,
    warnings: recorder.warnings,
    summary: outcome.summary,
    llm: outcome.llm,
  }
}

function logFailedItems(log: Logger, name: string, failures: readonly { item: string; reason: string }[]): void {
  for (const f of failures) log.warn(`${name}: failed item ${f.item}: ${f.reason}`)
}

/**
 * One line naming the workflow and the cause, where the failed items are listed and, when the
 * cache will answer the items that succeeded, that a re-run retries only the failed ones.
 */
function describeFailure(name: string, cause: unknown, failedItems: number, deps: RunWorkflowDeps): WorkflowError {
  const [headline, ...details] = (cause instanceof Error ? cause.message : String(cause)).split('\n')
  const hints =
    failedItems === 0
      ? []
      : [
          `the failed items are listed in ${join(deps.outputDir, 'stats.json')}`,
          ...(deps.persistentCache
            ? ['run the command again to retry only them (the others are answered from the cache)']
            : []),
        ]
  // Lines after the first (a raw model reply) stay below the one-line summary.
  return new WorkflowError(name, [[`${name} failed: ${headline}`, ...hints].join('; '), ...details].join('\n'), {
    cause,
  })
}

function progressTicker(reporter: Reporter, workflow: string, label: string, total: number): ProgressTicker {
  let done = 0
  reporter.progress(workflow, label, 0, total)
  return {
    tick(count = 1) {
      done += count
      reporter.progress(workflow, label, done, total)
    },
    done() {
      reporter.progress(workflow, label, total, total)
    },
  }
}
