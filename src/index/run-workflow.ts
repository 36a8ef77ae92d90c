/** Runs one workflow: staged writes, progress, stats, usage and the resume record. */
import { join } from 'node:path'
import type { Settings } from '../config/schema.js'
import { WorkflowError } from '../errors.js'
import type { Logger } from '../logger.js'
import type { KeyValueStore } from '../storage/key-value-store.js'
import { ParquetTableStore } from '../storage/table-store.js'
import { sampleMemory } from './memory-sampler.js'
import type { createModelRegistry } from './models.js'
import type { Reporter } from './reporter.js'
import { tableHashes, writeResumeState, type ResumeState } from './resume.js'
import { addUsage, emptyUsage, WorkflowStatsRecorder, writeStatsFile, type RunStatsFile } from './run-stats.js'
import { StagedTableStore } from './staged-table-store.js'
import type { Clock, ProgressTicker, WorkflowContext } from './workflow.js'
import { WORKFLOWS, type WorkflowName } from './workflows/index.js'

export interface RunWorkflowDeps {
  settings: Settings
  outputDir: string
  cache: KeyValueStore
  registry: ReturnType<typeof createModelRegistry>
  log: Logger
  reporter: Reporter
  /** Mutated: the entry of this workflow is added. */
  stats: RunStatsFile
  /** Mutated: the record of this workflow is appended once it has finished. */
  state: ResumeState
  clock: Clock
  signal: AbortSignal
  verbose: boolean
}

export async function runWorkflow(
  planned: { name: WorkflowName; fingerprint: string },
  deps: RunWorkflowDeps,
): Promise<{ stop: boolean }> {
  const { name } = planned
  const workflow = WORKFLOWS[name]
  const target = new ParquetTableStore(deps.outputDir)
  const tables = new StagedTableStore(target, join(deps.outputDir, '.staging', name))
  const recorder = new WorkflowStatsRecorder((message) => {
    deps.reporter.warning(message)
    deps.log.warn(`${name}: ${message}`)
  })
  deps.reporter.workflowStart(name)
  deps.log.info(`Starting workflow: ${name}`)
  const started = performance.now()
  const memory = sampleMemory()
  const ctx: WorkflowContext = {
    settings: deps.settings,
    tables,
    previousTables: undefined,
    cache: deps.cache,
    models: deps.registry.forWorkflow(name),
    log: deps.log,
    stats: recorder,
    clock: deps.clock,
    signal: deps.signal,
    progress: (label, total) => progressTicker(deps.reporter, name, label, total),
  }
  try {
    const result = await workflow.run(ctx)
    await tables.commit()
    const { peakBytes, deltaBytes } = memory.stop()
    const seconds = (performance.now() - started) / 1000
    const usage = deps.registry.usageByWorkflow()[name] ?? {}
    deps.stats.workflows[name] = {
      overall: seconds,
      peak_memory_bytes: peakBytes,
      memory_delta_bytes: deltaBytes,
      skipped: false,
      rows: { ...(result.rows ?? {}) },
      counters: recorder.counters,
      failures: recorder.failures,
      warnings: recorder.warnings,
      summary: { ...(result.summary ?? {}) },
      llm: usage,
    }
    for (const u of Object.values(usage)) deps.stats.llm_totals = addUsage(deps.stats.llm_totals ?? emptyUsage(), u)
    if (name === 'load_input_documents') deps.stats.num_documents = result.rows?.documents ?? 0
    deps.state.completed.push({ workflow: name, fingerprint: planned.fingerprint, tables: await tableHashes(target) })
    await writeResumeState(deps.outputDir, deps.state)
    await writeStatsFile(deps.outputDir, deps.stats)
    for (const f of recorder.failures) deps.log.warn(`${name}: failed item ${f.item}: ${f.reason}`)
    deps.log.info(`Workflow complete: ${name} (${seconds.toFixed(2)} s)`)
    deps.reporter.workflowEnd(name, { seconds, rows: result.rows ?? {}, skipped: false, failures: recorder.failures.length })
    return { stop: result.stop === true }
  } catch (error) {
    memory.stop()
    await tables.discard()
    await writeStatsFile(deps.outputDir, deps.stats)
    const message = error instanceof Error ? error.message : String(error)
    deps.reporter.workflowFailed(name, message)
    deps.log.error(`error running workflow ${name}: ${error instanceof Error ? (error.stack ?? message) : message}`)
    if (error instanceof WorkflowError) throw error
    // Keep the original class reachable as `cause`; the CLI prints one line naming the workflow.
    throw new WorkflowError(name, `workflow ${name} failed: ${message}`, { cause: error })
  }
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
