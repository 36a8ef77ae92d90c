/**
 * The pipeline runner: resolves the workflow list, resumes after the last unchanged finished
 * workflow, runs the rest with staged writes, and records stats.json, context.json and the log.
 */
import { setMaxListeners } from 'node:events'
import { readFile } from 'node:fs/promises'
import { isAbsolute, join, relative, sep } from 'node:path'
import { loadConfig, type LoadedConfig } from '../../config/load.js'
import type { Settings } from '../../config/schema.js'
import { ConfigError } from '../../errors.js'
import type { BatchMode } from '../../llm/batch/mode.js'
import type { ModelUsage } from '../../llm/types.js'
import type { Logger } from '../../logger.js'
import { writeFileAtomic } from '../../storage/atomic-write.js'
import { parseJson, unlessAbsent } from '../../storage/fs-errors.js'
import { keyValueStoreAt } from '../../storage/object/object-kv.js'
import { MemoryKeyValueStore, NullKeyValueStore, type KeyValueStore } from '../../storage/key-value-store.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { DecodedTableCache } from '../../storage/decoded-tables.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { VERSION } from '../../version.js'
import { compareWithActual, estimateWorkflows } from '../plan/estimate-run.js'
import { chunksPerDocument, type ChunkFigures, type ReportFigures } from '../operations/estimate-usage.js'
import {
  batchModeFor,
  batchSettings,
  batchStats,
  clearBatchState,
  uncollectedBatchesNotice,
  type BatchRunOptions,
} from './batch-run.js'
import { createFileLogger } from './file-logger.js'
import { interruptible, type Interruption } from './interrupt.js'
import { createModelRegistry } from './models.js'
import { METHODS, PIPELINES, UPDATE_PIPELINES, type IndexMethod } from '../plan/pipelines.js'
import { applyEntitySwitch, requireEntitiesForUpdate } from '../plan/entity-switch.js'
import { forcedRerun } from '../plan/forced-rerun.js'
import { fingerprintWorkflows, type PlannedWorkflow } from '../plan/plan-fingerprints.js'
import { ReplyReuse } from './reply-reuse.js'
import { beginGeneration, rebaseSettings, resumeSourceDir, type IndexGeneration } from './index-generation.js'
import { generationPaths } from '../../storage/generations.js'
import { SILENT_REPORTER, type Reporter } from './reporter.js'
import {
  readResumeState,
  rerunReason,
  resumablePrefix,
  tableHashes,
  writeResumeState,
  type ResumeRecord,
  type ResumeState,
} from './resume.js'
import { emptyUsage, totalUsage, writeStatsFile, type RunStatsFile } from './run-stats.js'
import { clearStaging } from './staged-table-store.js'
import { rejectPlaceholderKeys } from './placeholder-keys.js'
import { runWorkflow } from './run-workflow.js'
import { InOrderRecorder, inSequence, runGraph, tablesInListOrder, workflowGraph } from './schedule.js'
import { OneAtATime, readsLargeTable } from './large-reads.js'
import { usageByModel, usageByWorkflow } from './usage-by-model.js'
import type { DocumentChanges } from '../operations/document-changes.js'
import { type Clock, artifactClock } from '../workflow.js'
import { modelsUsedBy } from '../plan/workflow-models.js'
import { isWorkflowName, WORKFLOWS, type WorkflowName } from '../workflows/index.js'
import { emptyReplyNotes } from '../workflows/extraction-stats.js'

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
  /**
   * Keep going when text units or community reports fail after retries (failed calls, replies still
   * unusable when asked again): the lost items are listed instead of failing the run
   * (`--allow-partial`: every max_failed_fraction set to 1).
   */
  allowPartial?: boolean
  verbose?: boolean
  reporter?: Reporter
  env?: Readonly<Record<string, string | undefined>>
  signal?: AbortSignal
  /** Ctrl-C handling: once requested, no new model call or workflow starts (see interrupt.ts). */
  interrupt?: Interruption
  clock?: Clock
  /** The settings the command already loaded: used instead of reading root/configFile/env again. */
  config?: LoadedConfig
  /** Who holds the index's lock, as another run's "locked" message names it (default: graphrag index, or graphrag update). */
  command?: string
  /** `--batch`: model calls go to the providers' Batch APIs (docs/batch.md); models with `batch: true` are batched without it. */
  batch?: BatchRunOptions
  /**
   * Re-run this workflow and the ones after it although they could resume, while every earlier one
   * must resume (`graphrag refresh-relations`: create_chunk_graph alone; plan/forced-rerun.ts).
   */
  rerunFrom?: WorkflowName
  /** Table files above this many bytes are large: their readers run one at a time (large-reads.ts; LARGE_TABLE_BYTES but for tests). */
  largeTableBytes?: number
  /** Set by `graphrag update` (update.ts): called holding the lock before the first workflow. */
  update?: {
    /** The configuration the update planned with: loaded once for the plan and the run. */
    config: LoadedConfig
    /** The documents the update adds, edits and deletes, as planned: the workflows report them. */
    changes: DocumentChanges
    prepare(run: { reporter: Reporter; reuse: ReplyReuse | undefined; log: Logger }): Promise<void>
    record(stats: RunStatsFile, reuse: ReplyReuse | undefined): void
    /** What stats.json's estimate rests on: the changed documents' chunks and the reports the change reaches, as the dry run estimates them. */
    estimate: { figures: ChunkFigures; reports: ReportFigures | undefined }
  }
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

/**
 * Loads settings and works out which workflows would run; no model is called. The plan's settings
 * point into the work generation (index-generation.ts), where the run writes and resumes.
 */
/** The run's settings: those the command loaded (`options.config`), else read from root/configFile/env. */
export function configOf(options: RunIndexOptions): LoadedConfig {
  return options.config ?? loadConfig({ root: options.root, configFile: options.configFile, env: options.env })
}

export async function planIndex(options: RunIndexOptions = {}, config?: LoadedConfig): Promise<IndexPlan> {
  const asLoaded = config ?? configOf(options)
  const published = options.allowPartial === true ? allowingPartial(asLoaded) : asLoaded
  const publishedDir = published.settings.output_storage.base_dir
  const loaded = {
    ...published,
    settings: rebaseSettings(published.settings, publishedDir, generationPaths(publishedDir).work),
  }
  const { settings } = loaded
  const method = indexMethod(settings, options.method)
  if (options.update !== undefined) requireEntitiesForUpdate(settings)
  const names =
    options.update !== undefined && settings.workflows === null
      ? [...UPDATE_PIPELINES[method]]
      : resolveWorkflowNames(settings, method)
  const workflows = await fingerprintWorkflows(names, settings)
  const outputDir = await resumeSourceDir(publishedDir)
  const resumeState = await readResumeState(outputDir)
  const planned = workflows.map((w) => ({ workflow: w.name, fingerprint: w.fingerprint }))
  const resumeFrom =
    options.resume === false
      ? 0
      : resumablePrefix(planned, resumeState, await tableHashes(new ParquetTableStore(outputDir)))
  const reason = options.resume === false ? undefined : rerunReason(planned, resumeState, resumeFrom)
  const rerun = reason === undefined ? undefined : { workflow: workflows[resumeFrom]!.name, reason }
  if (options.rerunFrom !== undefined) {
    const forced = forcedRerun(workflows, resumeFrom, options.rerunFrom)
    return { loaded, method, workflows, resumeFrom: forced.resumeFrom, rerun: forced.rerun, resumeState }
  }
  return { loaded, method, workflows, resumeFrom, rerun, resumeState }
}

/** `--allow-partial`: no failure budget, so failed items are listed rather than failing the run. */
function allowingPartial(loaded: LoadedConfig): LoadedConfig {
  const { settings } = loaded
  return {
    ...loaded,
    settings: {
      ...settings,
      extract_graph: { ...settings.extract_graph, max_failed_fraction: 1 },
      community_reports: { ...settings.community_reports, max_failed_fraction: 1 },
    },
  }
}

/** Runs the pipeline holding the index's lock, in a work generation published when the whole run succeeded. */
export async function runIndex(options: RunIndexOptions = {}): Promise<IndexRunResult> {
  const loaded = options.update?.config ?? configOf(options)
  const command = options.command ?? (options.update === undefined ? 'graphrag index' : 'graphrag update')
  const generation = await beginGeneration(loaded.settings, command, { resume: options.resume })
  const reporter = options.reporter ?? SILENT_REPORTER
  try {
    for (const notice of generation.notices) reporter.warning(notice)
    return await runInGeneration(options, loaded, generation)
  } finally {
    for (const warning of await generation.release()) reporter.warning(warning)
  }
}

async function runInGeneration(
  options: RunIndexOptions,
  loaded: LoadedConfig,
  generation: IndexGeneration,
): Promise<IndexRunResult> {
  const started = performance.now()
  const reporter = options.reporter ?? SILENT_REPORTER
  const plan = await withRunVectors(await planIndex(options, loaded), generation)
  const { settings, warnings } = plan.loaded
  for (const warning of warnings) reporter.warning(warning)
  const outputDir = settings.output_storage.base_dir
  const log = createFileLogger(join(settings.reporting.base_dir, 'indexing-engine.log'), {
    verbose: options.verbose ?? false,
    secrets: modelSecrets(settings),
  })
  log.info(`graphrag ${VERSION}: indexing ${settings.root} with method ${plan.method}`)
  generation.storeRetries.attach(log)
  // Earlier model work kept in the index answers where the cache cannot (an update reuses it even with --no-cache).
  const reuse =
    options.cache === false && options.update === undefined
      ? undefined
      : await ReplyReuse.open(new ParquetTableStore(outputDir), [settings.embed_text.model_instance_name])
  const cache = reuse?.wrap(createCache(settings, options.cache !== false)) ?? createCache(settings, false)
  const batch = batchModeFor(settings, options.batch, {
    env: options.env ?? process.env,
    log,
    checkpoint: () => generation.checkpoint(),
    stop: options.interrupt?.requestedSignal,
  })
  const uncollected = batch === undefined ? await uncollectedBatchesNotice(outputDir) : undefined
  if (uncollected !== undefined) reporter.warning(uncollected)
  try {
    return await runWithModels(options, { loaded, plan, generation, reuse, cache, log, started, batch })
  } finally {
    batch?.close()
  }
}

interface RunContext {
  /** The configuration as loaded (paths in output/, not the work generation). */
  loaded: LoadedConfig
  plan: IndexPlan
  generation: IndexGeneration
  reuse: ReplyReuse | undefined
  cache: KeyValueStore
  log: Logger
  started: number
  batch: BatchMode | undefined
}

/**
 * An update compares with the published index, which stays as it was until the end of the run, and
 * reads the same entities and relationships in several workflows: its stores share the rows decoded so
 * far (a full index reads each table a few times only, and keeps its memory for the work itself).
 */
function updateStores(
  options: RunIndexOptions,
  published: string,
): { previousTables: ParquetTableStore | undefined; decoded?: DecodedTableCache } {
  if (options.update === undefined) return { previousTables: undefined }
  const decoded = new DecodedTableCache()
  return { previousTables: new ParquetTableStore(published, 'wasm', decoded), decoded }
}

async function runWithModels(options: RunIndexOptions, context: RunContext): Promise<IndexRunResult> {
  const { loaded, plan, generation, reuse, cache, log, started, batch } = context
  const { settings, apiKeyOrigins } = plan.loaded
  const reporter = options.reporter ?? SILENT_REPORTER
  const outputDir = settings.output_storage.base_dir
  const registry = interruptible(
    createModelRegistry(settings, { cache, log, apiKeyOrigins, noCache: reuse === undefined, batch }),
    options.interrupt,
  )
  const toRun = plan.workflows.slice(plan.resumeFrom)
  const skipped = plan.workflows.slice(0, plan.resumeFrom).map((w) => w.name)
  reporter.pipelineStart(
    plan.workflows.map((w) => w.name),
    skipped,
    plan.rerun,
  )
  reporter.watch?.((workflow) => ({ ...registry.liveStatus(workflow), storeRetries: generation.storeRetries.count() }))
  if (skipped.length > 0) log.info(`resuming: ${skipped.join(', ')} finished before with unchanged inputs`)
  if (plan.rerun !== undefined) log.info(`re-running ${plan.rerun.workflow}: ${plan.rerun.reason}`)
  const used = modelsUsedBy(
    toRun.map((w) => w.name),
    settings,
  )
  rejectPlaceholderKeys(settings, used, apiKeyOrigins)
  const stats = await initialStats(outputDir, skipped)
  if (!options.skipValidation && toRun.length > 0) {
    await registry.preflight(used)
    recordPreflight(stats, registry.usageByWorkflow())
  }
  await clearStaging(join(outputDir, '.staging'))
  const state: ResumeState = { version: 1, completed: plan.resumeState.completed.slice(0, plan.resumeFrom) }
  const signal = runSignal(options.signal)
  await options.update?.prepare({ reporter, reuse, log })
  const deps = {
    settings: batch === undefined ? settings : batchSettings(settings),
    outputDir,
    cache,
    persistentCache: options.cache !== false && settings.cache.type === 'json',
    registry,
    log,
    reporter,
    stats,
    state,
    clock: options.clock ?? artifactClock(),
    signal,
    verbose: options.verbose ?? false,
    ...updateStores(options, generation.paths.output),
    changes: options.update?.changes,
  }
  const ran = await runScheduled(toRun, deps, { options, reuse, generation })
  await completeStats(stats, { options, plan, registry, reuse, batch, ran, started })
  await clearBatchState(outputDir)
  await finishRun(outputDir, stats, log)
  const published = await generation.publish()
  reporter.pipelineEnd(
    endSummary(stats, { plan, registry, published, generation, vectorDb: loaded.settings.vector_store.db_uri }),
  )
  return { outputDir: generation.paths.output, ran, skipped, stats }
}

/** What the reporter prints when the run is published. */
function endSummary(
  stats: RunStatsFile,
  run: {
    plan: IndexPlan
    registry: ReturnType<typeof createModelRegistry>
    published: string
    generation: IndexGeneration
    vectorDb: string
  },
): Parameters<Reporter['pipelineEnd']>[0] {
  const { plan, registry, published, generation } = run
  return {
    seconds: stats.total_runtime,
    outputDir: published,
    tables: finalTables(stats),
    usage: stats.llm_totals,
    usageByModel: usageByModel(plan.loaded.settings, registry.usageByWorkflow()),
    usageByWorkflow: usageByWorkflow(registry.usageByWorkflow()),
    batch: stats.batch,
    vectorStore: plan.workflows.some((w) => WORKFLOWS[w.name].writesVectorStore === true)
      ? publishedPath(run.vectorDb, generation.paths.output, published)
      : undefined,
    notes: emptyReplyNotes(stats.workflows),
  }
}

type WorkflowDeps = Parameters<typeof runWorkflow>[1]

/**
 * Each workflow starts once the ones whose tables it reads (or rewrites) have finished; the models'
 * limits are shared through the registry, and resume records stay in plan order. Returns the
 * workflows that ran, in the order they finished; throws the first failure.
 */
async function runScheduled(
  toRun: readonly PlannedWorkflow[],
  deps: WorkflowDeps & { state: ResumeState },
  run: { options: RunIndexOptions; reuse: ReplyReuse | undefined; generation: IndexGeneration },
): Promise<WorkflowName[]> {
  const { options, reuse, generation } = run
  const { state, outputDir } = deps
  const workflows = toRun.map((w) => WORKFLOWS[w.name])
  const recorder = new InOrderRecorder<ResumeRecord>(async (record, at) => {
    const previous = state.completed.at(-1)?.tables ?? {}
    state.completed.push({ ...record, tables: tablesInListOrder(previous, record.tables, workflows[at]!.writes) })
    await writeResumeState(outputDir, state)
    generation.checkpoint()
  })
  // Workflows reading a large table run one at a time (large-reads.ts): their reads side by side outgrow memory.
  const largeReads = new OneAtATime()
  const runOne = async (i: number): Promise<{ stop: boolean }> => {
    const planned = toRun[i]!
    const runOwn = () => {
      // Checked when it starts, after any wait for a large read.
      options.interrupt?.throwIfRequested()
      return runWorkflow(planned, { ...deps, recordCompletion: (r) => recorder.record(i, r) })
    }
    const runIt = readsLargeTable(outputDir, workflows[i]!.reads, options.largeTableBytes)
      ? () => largeReads.run(runOwn)
      : runOwn
    const outcome = reuse === undefined ? await runIt() : await reuse.within(planned.name, runIt)
    await reuse?.finishWorkflow(new ParquetTableStore(outputDir), planned.name)
    // Also after model_replies has the workflow's rows (the record above may come first).
    generation.checkpoint()
    return outcome
  }
  // An update's change-recording workflows (update_*) touch state they do not declare: they keep list order.
  const outcome = await runGraph(
    options.update === undefined ? workflowGraph(workflows) : inSequence(workflows.length),
    runOne,
  )
  if (outcome.failed) throw outcome.error
  return outcome.finished.map((i) => toRun[i]!.name)
}

/** stats.json's figures once every workflow ran: plan order, the estimate, runtime, endpoints, batches. */
async function completeStats(
  stats: RunStatsFile,
  run: {
    options: RunIndexOptions
    plan: IndexPlan
    registry: ReturnType<typeof createModelRegistry>
    reuse: ReplyReuse | undefined
    batch: BatchMode | undefined
    ran: readonly WorkflowName[]
    started: number
  },
): Promise<void> {
  const { options, plan, registry, reuse, batch, ran } = run
  const settings = plan.loaded.settings
  stats.workflows = inPlanOrder(stats.workflows, plan.workflows)
  const planned = plan.workflows.map((w) => w.name)
  stats.estimate = await estimateNextToActual(
    settings,
    { ran, planned },
    options.update?.estimate ?? new ParquetTableStore(settings.output_storage.base_dir),
    registry.usageByWorkflow(),
  )
  stats.total_runtime = (performance.now() - run.started) / 1000
  const endpoints = registry.endpointStats()
  if (Object.keys(endpoints).length > 0) stats.endpoints = endpoints
  options.update?.record(stats, reuse)
  if (batch !== undefined) stats.batch = batchStats(batch, registry.usageByWorkflow())
}

/** The plan with an az:// or s3:// vector store pointed at the run's own folder (index-generation.ts). */
async function withRunVectors(plan: IndexPlan, generation: IndexGeneration): Promise<IndexPlan> {
  const embeds = plan.workflows.slice(plan.resumeFrom).some((w) => WORKFLOWS[w.name].writesVectorStore === true)
  const settings = await generation.withVectors(plan.loaded.settings, embeds)
  return { ...plan, loaded: { ...plan.loaded, settings } }
}

/** A path inside the output folder as published (in object storage, inside the new generation); others as they are. */
function publishedPath(path: string, outputDir: string, published: string): string {
  const rel = relative(outputDir, path)
  if (rel.startsWith('..') || isAbsolute(rel)) return path
  return published === outputDir ? path : `${published}/${rel.split(sep).join('/')}`
}

/** stats.json lists workflows in plan order, whichever finished first. */
function inPlanOrder(
  entries: RunStatsFile['workflows'],
  planned: readonly PlannedWorkflow[],
): RunStatsFile['workflows'] {
  return Object.fromEntries(planned.flatMap((w) => (entries[w.name] === undefined ? [] : [[w.name, entries[w.name]!]])))
}

/** The connectivity check is paid for too: its usage gets its own entry and joins the totals. */
function recordPreflight(stats: RunStatsFile, usage: Record<string, Record<string, ModelUsage>>): void {
  stats.preflight = { llm: usage.preflight ?? {} }
  stats.llm_totals = totalUsage(stats)
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

/**
 * The estimate for this run next to its usage (undefined without model calls): an index's recomputed
 * from its real chunks, an update's as its dry run would give it.
 */
async function estimateNextToActual(
  settings: Settings,
  workflows: { ran: readonly WorkflowName[]; planned: readonly WorkflowName[] },
  basis: ParquetTableStore | { figures: ChunkFigures; reports: ReportFigures | undefined },
  usage: Parameters<typeof compareWithActual>[1],
): Promise<ReturnType<typeof compareWithActual> | undefined> {
  let figures: ChunkFigures
  let reports: ReportFigures | undefined
  if (basis instanceof ParquetTableStore) {
    if (!(await basis.has(BASE_TEXT_UNITS.name))) return undefined
    const units = await basis.read(BASE_TEXT_UNITS)
    figures = {
      chunks: units.length,
      chunkTokens: units.reduce((sum, u) => sum + u.n_tokens, 0),
      chunksPerDocument: chunksPerDocument(units),
    }
  } else ({ figures, reports } = basis)
  const estimate = estimateWorkflows(settings, workflows.ran, figures, workflows.planned, reports)
  const comparison = compareWithActual(estimate, usage)
  return comparison.length > 0 ? comparison : undefined
}

/** The method a run uses: `--method`, else settings `method`, else standard. */
export function indexMethod(settings: Settings, flag: IndexMethod | undefined): IndexMethod {
  const method = flag ?? settings.method ?? 'standard'
  if (!(METHODS as readonly string[]).includes(method))
    throw new ConfigError(`--method: expected one of ${METHODS.join(', ')}, got "${method}"`)
  return method
}

export function resolveWorkflowNames(settings: Settings, method: IndexMethod): WorkflowName[] {
  if (settings.workflows === null) return applyEntitySwitch(settings, PIPELINES[method])
  return settings.workflows.map((name, i) => {
    if (!isWorkflowName(name)) {
      throw new ConfigError(
        `workflows[${i}]: unknown workflow "${name}" (known: ${Object.keys(WORKFLOWS).join(', ')})`,
        {
          keyPath: `workflows[${i}]`,
        },
      )
    }
    return name
  })
}

export function modelSecrets(settings: Settings): string[] {
  return [...Object.values(settings.completion_models), ...Object.values(settings.embedding_models)]
    .map((m) => m.api_key ?? '')
    .filter((k) => k !== '')
}

export function createCache(settings: Settings, enabled: boolean): KeyValueStore {
  if (!enabled || settings.cache.type === 'none') return new NullKeyValueStore()
  if (settings.cache.type === 'memory') return new MemoryKeyValueStore()
  return keyValueStoreAt(settings.cache.storage.base_dir)
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
    num_documents: skipped.some((name) => WORKFLOWS[name].countsDocuments === true)
      ? (previous?.num_documents ?? 0)
      : 0,
    update_documents: 0,
    input_load_time: 0,
    workflows,
    llm_totals: emptyUsage(),
  }
}

async function readPreviousStats(outputDir: string): Promise<Partial<RunStatsFile> | undefined> {
  const file = join(outputDir, 'stats.json')
  const text = await unlessAbsent(file, 'read', () => readFile(file, 'utf8'), undefined)
  return text === undefined ? undefined : parseJson<Partial<RunStatsFile>>(text)
}

async function finishRun(outputDir: string, stats: RunStatsFile, log: Logger): Promise<void> {
  await writeStatsFile(outputDir, stats)
  await writeFileAtomic(join(outputDir, 'context.json'), '{}\n')
  log.info(`pipeline complete in ${stats.total_runtime.toFixed(1)} s`)
}

/** Row counts of the tables as they stand at the end (the last writer of each table wins). */
function finalTables(stats: RunStatsFile): Array<{ name: string; rows: number }> {
  const rows = new Map<string, number>()
  for (const entry of Object.values(stats.workflows))
    for (const [table, n] of Object.entries(entry.rows)) rows.set(table, n)
  return [...rows].map(([name, n]) => ({ name, rows: n }))
}
