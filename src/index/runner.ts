/**
 * The pipeline runner: resolves the workflow list, resumes after the last unchanged finished
 * workflow, runs the rest with staged writes, and records stats.json, context.json and the log.
 */
import { setMaxListeners } from 'node:events'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { loadConfig, type LoadedConfig } from '../config/load.js'
import type { Settings } from '../config/schema.js'
import { ConfigError } from '../errors.js'
import type { ModelUsage } from '../llm/types.js'
import type { Logger } from '../logger.js'
import { writeFileAtomic } from '../storage/atomic-write.js'
import { FileKeyValueStore, MemoryKeyValueStore, NullKeyValueStore, type KeyValueStore } from '../storage/key-value-store.js'
import { ParquetTableStore } from '../storage/table-store.js'
import { BASE_TEXT_UNITS } from '../model/text-units.js'
import { VERSION } from '../version.js'
import { compareWithActual, estimateWorkflows } from './estimate-run.js'
import { createFileLogger } from './file-logger.js'
import { createModelRegistry } from './models.js'
import { METHODS, PIPELINES, type IndexMethod } from './pipelines.js'
import { fingerprintWorkflows, type PlannedWorkflow } from './plan-fingerprints.js'
import { SILENT_REPORTER, type Reporter } from './reporter.js'
import { readResumeState, rerunReason, resumablePrefix, tableHashes, writeResumeState, type ResumeRecord, type ResumeState } from './resume.js'
import { emptyUsage, totalUsage, writeStatsFile, type RunStatsFile } from './run-stats.js'
import { clearStaging } from './staged-table-store.js'
import { runWorkflow } from './run-workflow.js'
import { InOrderRecorder, runGraph, tablesInListOrder, workflowGraph } from './schedule.js'
import { usageByModel } from './usage-by-model.js'
import type { Clock } from './workflow.js'
import { mergeModelsUsed, modelsUsedBy, type ModelsUsed } from './workflow-models.js'
import { isWorkflowName, WORKFLOWS, type WorkflowName } from './workflows/index.js'

export interface RunIndexOptions {
  root?: string
  configFile?: string
  /** standard or fast (default: settings `method`, else standard). */
  method?: IndexMethod
  /** Skip finished workflows whose inputs and settings are unchanged (default true). */
  resume?: boolean
  /** Use the LLM / noun-phrase cache (default true). */
  cache?: boolean
  skipValidation?: boolean
  verbose?: boolean
  reporter?: Reporter
  env?: Readonly<Record<string, string | undefined>>
  signal?: AbortSignal
  clock?: Clock
}

export interface IndexPlan {
  loaded: LoadedConfig
  method: IndexMethod
  workflows: PlannedWorkflow[]
  /** How many leading workflows are skipped because they finished before with the same inputs. */
  resumeFrom: number
  /** The first workflow that runs again when it is because of its own failed items last time. */
  rerun: { workflow: WorkflowName; reason: string } | undefined
  resumeState: ResumeState
}

export interface IndexRunResult {
  outputDir: string
  ran: WorkflowName[]
  skipped: WorkflowName[]
  stats: RunStatsFile
}

const SYSTEM_CLOCK: Clock = { now: () => new Date() }

/** Loads settings and works out which workflows would run; no model is called. */
export async function planIndex(options: RunIndexOptions = {}): Promise<IndexPlan> {
  const loaded = loadConfig({ root: options.root, configFile: options.configFile, env: options.env })
  const { settings } = loaded
  const method = options.method ?? settings.method ?? 'standard'
  if (!(METHODS as readonly string[]).includes(method)) throw new ConfigError(`--method: expected one of ${METHODS.join(', ')}, got "${method}"`)
  const workflows = await fingerprintWorkflows(resolveWorkflowNames(settings, method), settings)
  const outputDir = settings.output_storage.base_dir
  const resumeState = await readResumeState(outputDir)
  const planned = workflows.map((w) => ({ workflow: w.name, fingerprint: w.fingerprint }))
  const resumeFrom = options.resume === false ? 0 : resumablePrefix(planned, resumeState, await tableHashes(new ParquetTableStore(outputDir)))
  const reason = options.resume === false ? undefined : rerunReason(planned, resumeState, resumeFrom)
  const rerun = reason === undefined ? undefined : { workflow: workflows[resumeFrom]!.name, reason }
  return { loaded, method, workflows, resumeFrom, rerun, resumeState }
}

export async function runIndex(options: RunIndexOptions = {}): Promise<IndexRunResult> {
  const started = performance.now()
  const reporter = options.reporter ?? SILENT_REPORTER
  const plan = await planIndex(options)
  const { settings, warnings, apiKeyOrigins } = plan.loaded
  for (const warning of warnings) reporter.warning(warning)
  const outputDir = settings.output_storage.base_dir
  const log = createFileLogger(join(settings.reporting.base_dir, 'indexing-engine.log'), {
    verbose: options.verbose ?? false,
    secrets: modelSecrets(settings),
  })
  log.info(`graphrag ${VERSION}: indexing ${settings.root} with method ${plan.method}`)
  const cache = createCache(settings, options.cache !== false)
  const registry = createModelRegistry(settings, { cache, log, apiKeyOrigins, noCache: options.cache === false })
  const toRun = plan.workflows.slice(plan.resumeFrom)
  const skipped = plan.workflows.slice(0, plan.resumeFrom).map((w) => w.name)
  reporter.pipelineStart(plan.workflows.map((w) => w.name), skipped, plan.rerun)
  if (skipped.length > 0) log.info(`resuming: ${skipped.join(', ')} finished before with unchanged inputs`)
  if (plan.rerun !== undefined) log.info(`re-running ${plan.rerun.workflow}: ${plan.rerun.reason}`)
  const used = mergeModelsUsed(toRun.map((w) => modelsUsedBy(w.name, settings)))
  rejectPlaceholderKeys(settings, used, apiKeyOrigins)
  const stats = await initialStats(outputDir, skipped)
  if (!options.skipValidation && toRun.length > 0) {
    await registry.preflight(used)
    recordPreflight(stats, registry.usageByWorkflow())
  }
  await clearStaging(join(outputDir, '.staging'))
  const state: ResumeState = { version: 1, completed: plan.resumeState.completed.slice(0, plan.resumeFrom) }
  const signal = runSignal(options.signal)
  const deps = {
    settings,
    outputDir,
    cache,
    persistentCache: options.cache !== false && settings.cache.type === 'json',
    registry,
    log,
    reporter,
    stats,
    state,
    clock: options.clock ?? SYSTEM_CLOCK,
    signal,
    verbose: options.verbose ?? false,
  }
  // Each workflow starts once the ones whose tables it reads (or rewrites) have finished; the models'
  // limits are shared through the registry, and resume records stay in plan order.
  const workflows = toRun.map((w) => WORKFLOWS[w.name])
  const recorder = new InOrderRecorder<ResumeRecord>(async (record, at) => {
    const previous = state.completed.at(-1)?.tables ?? {}
    state.completed.push({ ...record, tables: tablesInListOrder(previous, record.tables, workflows[at]!.writes) })
    await writeResumeState(outputDir, state)
  })
  const graph = workflowGraph(workflows)
  const outcome = await runGraph(graph, (i) => runWorkflow(toRun[i]!, { ...deps, recordCompletion: (r) => recorder.record(i, r) }))
  if (outcome.failed) throw outcome.error
  const ran = outcome.finished.map((i) => toRun[i]!.name)
  stats.workflows = inPlanOrder(stats.workflows, plan.workflows)
  stats.estimate = await estimateNextToActual(settings, ran, new ParquetTableStore(outputDir), registry.usageByWorkflow())
  stats.total_runtime = (performance.now() - started) / 1000
  await finishRun(outputDir, stats, log)
  reporter.pipelineEnd({
    seconds: stats.total_runtime,
    outputDir,
    tables: finalTables(stats),
    usage: stats.llm_totals,
    usageByModel: usageByModel(settings, registry.usageByWorkflow()),
    vectorStore: plan.workflows.some((w) => w.name === 'generate_text_embeddings') ? settings.vector_store.db_uri : undefined,
  })
  return { outputDir, ran, skipped, stats }
}

/** stats.json lists workflows in plan order, whichever finished first. */
function inPlanOrder(entries: RunStatsFile['workflows'], planned: readonly PlannedWorkflow[]): RunStatsFile['workflows'] {
  return Object.fromEntries(planned.flatMap((w) => (entries[w.name] === undefined ? [] : [[w.name, entries[w.name]!]])))
}

/** The connectivity check is paid for too: its usage gets its own entry and joins the totals. */
function recordPreflight(stats: RunStatsFile, usage: Record<string, Record<string, ModelUsage>>): void {
  stats.preflight = { llm: usage.preflight ?? {} }
  stats.llm_totals = totalUsage(stats)
}

/** `graphrag init` writes GRAPHRAG_API_KEY=<API_KEY>; say so before any call is attempted with it. */
export function rejectPlaceholderKeys(settings: Settings, used: ModelsUsed, origins: Readonly<Record<string, string>>): void {
  const groups = [['completion_models', used.chat], ['embedding_models', used.embedding]] as const
  for (const [group, ids] of groups) {
    for (const id of ids) {
      const model = settings[group][id]
      if (model?.api_key?.trim() !== '<API_KEY>') continue
      const origin = origins[`${group}.${id}`] ?? `${group}.${id}.api_key`
      throw new ConfigError(
        `${group}.${id}.api_key: still the placeholder <API_KEY> (from ${origin}); put your key in ${join(settings.root, '.env')} as GRAPHRAG_API_KEY=...`,
        { keyPath: `${group}.${id}.api_key` },
      )
    }
  }
}

/**
 * The signal every model call of the run listens to. Each queued or retrying request adds a
 * listener, so hundreds can be attached at once; that is expected, not a leak.
 */
function runSignal(outer: AbortSignal | undefined): AbortSignal {
  const controller = new AbortController()
  setMaxListeners(0, controller.signal)
  if (outer !== undefined) {
    if (outer.aborted) controller.abort(outer.reason)
    else outer.addEventListener('abort', () => controller.abort(outer.reason), { once: true })
  }
  return controller.signal
}

/** The dry-run estimate recomputed from the real chunks, next to what the run used (undefined without model calls). */
async function estimateNextToActual(
  settings: Settings,
  ran: readonly WorkflowName[],
  tables: ParquetTableStore,
  usage: Parameters<typeof compareWithActual>[1],
): Promise<ReturnType<typeof compareWithActual> | undefined> {
  if (!(await tables.has(BASE_TEXT_UNITS.name))) return undefined
  const units = await tables.read(BASE_TEXT_UNITS)
  const figures = { chunks: units.length, chunkTokens: units.reduce((sum, u) => sum + u.n_tokens, 0) }
  const comparison = compareWithActual(estimateWorkflows(settings, ran, figures), usage)
  return comparison.length > 0 ? comparison : undefined
}

function resolveWorkflowNames(settings: Settings, method: IndexMethod): WorkflowName[] {
  if (settings.workflows === null) return [...PIPELINES[method]]
  return settings.workflows.map((name, i) => {
    if (!isWorkflowName(name)) {
      throw new ConfigError(`workflows[${i}]: unknown workflow "${name}" (known: ${Object.keys(WORKFLOWS).join(', ')})`, {
        keyPath: `workflows[${i}]`,
      })
    }
    return name
  })
}

function modelSecrets(settings: Settings): string[] {
  return [...Object.values(settings.completion_models), ...Object.values(settings.embedding_models)]
    .map((m) => m.api_key ?? '')
    .filter((k) => k !== '')
}

export function createCache(settings: Settings, enabled: boolean): KeyValueStore {
  if (!enabled || settings.cache.type === 'none') return new NullKeyValueStore()
  if (settings.cache.type === 'memory') return new MemoryKeyValueStore()
  return new FileKeyValueStore(settings.cache.storage.base_dir)
}

async function initialStats(outputDir: string, skipped: readonly WorkflowName[]): Promise<RunStatsFile> {
  const previous = await readPreviousStats(outputDir)
  const workflows: RunStatsFile['workflows'] = {}
  for (const name of skipped) {
    const entry = previous?.workflows?.[name]
    if (entry !== undefined) workflows[name] = { ...entry, skipped: true }
  }
  return {
    total_runtime: 0,
    num_documents: skipped.includes('load_input_documents') ? (previous?.num_documents ?? 0) : 0,
    update_documents: 0,
    input_load_time: 0,
    workflows,
    llm_totals: emptyUsage(),
  }
}

async function readPreviousStats(outputDir: string): Promise<Partial<RunStatsFile> | undefined> {
  try {
    return JSON.parse(await readFile(join(outputDir, 'stats.json'), 'utf8')) as Partial<RunStatsFile>
  } catch {
    return undefined
  }
}

async function finishRun(outputDir: string, stats: RunStatsFile, log: Logger): Promise<void> {
  await writeStatsFile(outputDir, stats)
  await writeFileAtomic(join(outputDir, 'context.json'), '{}\n')
  log.info(`pipeline complete in ${stats.total_runtime.toFixed(1)} s`)
}

/** Row counts of the tables as they stand at the end (the last writer of each table wins). */
function finalTables(stats: RunStatsFile): Array<{ name: string; rows: number }> {
  const rows = new Map<string, number>()
  for (const entry of Object.values(stats.workflows)) for (const [table, n] of Object.entries(entry.rows)) rows.set(table, n)
  return [...rows].map(([name, n]) => ({ name, rows: n }))
}
