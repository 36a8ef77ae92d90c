/**
 * Sharded runs (`graphrag index --shard I/N`, `graphrag update --shard I/N`): the model work of the
 * I-th of N deterministic slices of the text units, written to the shared cache, and nothing else.
 *
 * Why this shape: a CI matrix (or a Kubernetes indexed job) is the engine that runs many machines;
 * the cache every shard and the final run share is the only state they need. A shard chunks the
 * documents exactly as the full run will (chunking is deterministic and cheap), asks the model
 * about its slice of text units, and stops: it takes no lock and publishes nothing, so shards run
 * side by side with each other and with readers of the published index. The final unsharded run
 * over the same storage then answers every extraction call from the cache and produces the tables
 * an unsharded run would, byte for byte, because the cache key of a call does not depend on which
 * process made it.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadConfig } from '../../config/load.js'
import type { Settings } from '../../config/schema.js'
import { ConfigError } from '../../errors.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { fingerprintWorkflows } from '../plan/plan-fingerprints.js'
import { type IndexMethod, UPDATE_PIPELINES } from '../plan/pipelines.js'
import { modelsUsedBy } from '../plan/workflow-models.js'
import { artifactClock, type ShardSlice } from '../workflow.js'
import { WORKFLOWS, type WorkflowName } from '../workflows/index.js'
import { createFileLogger } from './file-logger.js'
import { interruptible } from './interrupt.js'
import { createModelRegistry } from './models.js'
import { rejectPlaceholderKeys } from './placeholder-keys.js'
import { ReplyReuse } from './reply-reuse.js'
import { SILENT_REPORTER } from './reporter.js'
import { emptyUsage, totalUsage, type RunStatsFile } from './run-stats.js'
import { runWorkflow } from './run-workflow.js'
import { createCache, indexMethod, modelSecrets, resolveWorkflowNames, type RunIndexOptions } from './runner.js'

/** Shards a run may be split into at most: more would mostly measure start-up. */
export const MAX_SHARDS = 1000

export interface ShardRunResult {
  shard: ShardSlice
  /** The workflows whose model work this shard did, and those that only prepared the text units. */
  prefetched: WorkflowName[]
  prepared: WorkflowName[]
  /** Text units of the whole run, and of this shard. */
  textUnits: number
  shardTextUnits: number
  /** False when an update found nothing to do. */
  changed: boolean
  stats: RunStatsFile
}

/** Parses `I/N` (1 ≤ I ≤ N), as `--shard 2/3` gives it; a mistake names the flag. */
export function parseShard(text: string): ShardSlice {
  const match = /^\s*(\d+)\s*\/\s*(\d+)\s*$/.exec(text)
  const index = Number(match?.[1])
  const count = Number(match?.[2])
  if (match === null || index < 1 || count < 1 || index > count || count > MAX_SHARDS)
    throw new ConfigError(
      `--shard: expected I/N with 1 ≤ I ≤ N ≤ ${MAX_SHARDS} (e.g. 2/3 for the second of three shards), got "${text}"`,
    )
  return shardSlice(index, count)
}

function shardSlice(index: number, count: number): ShardSlice {
  return {
    index,
    count,
    select: <T>(items: readonly T[]) => items.filter((_, k) => k % count === index - 1),
  }
}

/**
 * Runs one shard: the workflows that make the text units (into a scratch folder), then the
 * model work of the slice for every later workflow that has some. `update` chunks what an update
 * would (every document, answered from the previous index where it did not change).
 */
export async function runShard(
  options: RunIndexOptions,
  shard: ShardSlice,
  mode: { update: boolean },
): Promise<ShardRunResult> {
  const loaded = loadConfig({ root: options.root, configFile: options.configFile, env: options.env })
  requireSharedCache(loaded.settings, options)
  const reporter = options.reporter ?? SILENT_REPORTER
  for (const warning of loaded.warnings) reporter.warning(warning)
  const published = loaded.settings.output_storage.base_dir
  const scratch = await mkdtemp(join(tmpdir(), 'graphrag-shard-'))
  try {
    // The text units are built in a scratch folder: a shard never writes the index.
    const settings: Settings = {
      ...loaded.settings,
      output_storage: { ...loaded.settings.output_storage, base_dir: scratch },
    }
    const method = indexMethod(settings, options.method)
    const { prepared, prefetched } = shardPlan(shardWorkflowNames(settings, method, mode.update))
    const planned = await fingerprintWorkflows([...prepared, ...prefetched], settings)
    const name = `shard-${shard.index}-of-${shard.count}`
    const log = createFileLogger(join(settings.reporting.base_dir, `indexing-engine.${name}.log`), {
      verbose: options.verbose ?? false,
      secrets: modelSecrets(settings),
    })
    log.info(`graphrag: ${name} of ${settings.root} with method ${method}${mode.update ? ' (update)' : ''}`)
    // As in the full run: replies the published index kept answer before the model is asked.
    const reuse = await ReplyReuse.open(new ParquetTableStore(published), [settings.embed_text.model_instance_name])
    const cache = reuse.wrap(createCache(settings, true))
    const registry = interruptible(
      createModelRegistry(settings, { cache, log, apiKeyOrigins: loaded.apiKeyOrigins, noCache: false }),
      options.interrupt,
    )
    reporter.watch?.((workflow) => registry.liveStatus(workflow))
    const used = modelsUsedBy(prefetched, settings)
    rejectPlaceholderKeys(settings, used, loaded.apiKeyOrigins)
    const stats = emptyStats()
    if (!options.skipValidation) await registry.preflight(used)
    reporter.pipelineStart(
      planned.map((w) => w.name),
      [],
      undefined,
    )
    const previousTables = mode.update ? new ParquetTableStore(published) : undefined
    const deps = shardDeps(options, {
      settings,
      outputDir: scratch,
      cache,
      registry,
      log,
      reporter,
      stats,
      previousTables,
    })
    const changed = await runInOrder(planned, (workflow) => {
      options.interrupt?.throwIfRequested()
      const slice = prefetched.includes(workflow.name) ? shard : undefined
      return reuse.within(workflow.name, () => runWorkflow(workflow, { ...deps, shard: slice }))
    })
    stats.llm_totals = totalUsage(stats)
    const units = changed ? await new ParquetTableStore(scratch).read(BASE_TEXT_UNITS) : []
    const shardTextUnits = shard.select(units).length
    log.info(`${name} complete: ${shardTextUnits} of ${units.length} text units`)
    return { shard, prefetched, prepared, textUnits: units.length, shardTextUnits, changed, stats }
  } finally {
    await rm(scratch, { recursive: true, force: true })
  }
}

/** What a shard's workflows run with: a fresh run state, no recorded changes. */
function shardDeps<T extends object>(options: RunIndexOptions, own: T) {
  return {
    ...own,
    persistentCache: true,
    state: { version: 1 as const, completed: [] },
    clock: options.clock ?? artifactClock(),
    signal: options.signal ?? new AbortController().signal,
    verbose: options.verbose ?? false,
    // load_update_documents compares the input with the previous index itself.
    changes: undefined,
  }
}

/** An update shard chunks what an update would, unless the workflow list is configured. */
function shardWorkflowNames(settings: Settings, method: IndexMethod, update: boolean): WorkflowName[] {
  return update && settings.workflows === null ? [...UPDATE_PIPELINES[method]] : resolveWorkflowNames(settings, method)
}

/** Runs the workflows one after another; false when one stopped the run (nothing changed). */
async function runInOrder<W>(
  workflows: readonly W[],
  run: (workflow: W) => Promise<{ stop: boolean }>,
): Promise<boolean> {
  for (const workflow of workflows) {
    const outcome = await run(workflow)
    if (outcome.stop) return false
  }
  return true
}

function emptyStats(): RunStatsFile {
  return {
    total_runtime: 0,
    num_documents: 0,
    update_documents: 0,
    input_load_time: 0,
    workflows: {},
    llm_totals: emptyUsage(),
  }
}

/**
 * The workflows up to the one that writes the text units run whole (documents and chunking cost
 * no model call and every shard needs the same units); after them, only those with model work to
 * split (`prefetch`).
 */
function shardPlan(names: readonly WorkflowName[]): { prepared: WorkflowName[]; prefetched: WorkflowName[] } {
  const last = names.findIndex((n) => WORKFLOWS[n].writes.includes(BASE_TEXT_UNITS.name))
  if (last < 0)
    throw new ConfigError(
      `--shard: the workflow list makes no text units (${BASE_TEXT_UNITS.name}), so there is no model work to split`,
      { keyPath: 'workflows' },
    )
  return {
    prepared: names.slice(0, last + 1),
    prefetched: names.slice(last + 1).filter((n) => WORKFLOWS[n].prefetch !== undefined),
  }
}

/** Shards hand their replies to the final run through the cache, so it must outlive the run and be shared. */
function requireSharedCache(settings: Settings, options: RunIndexOptions): void {
  if (options.cache === false)
    throw new ConfigError('--shard with --no-cache: a shard hands its model replies to the final run through the cache')
  if (settings.cache.type !== 'json')
    throw new ConfigError(
      `--shard: cache.type is ${settings.cache.type}; shards hand their model replies to the final run through the cache, so set cache.type: json with a cache.storage every shard and the final run share`,
      { keyPath: 'cache.type' },
    )
}
