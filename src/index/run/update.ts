/**
 * `graphrag update`: brings the index up to date with the input folder (new, edited and deleted
 * documents). An update is a full run of the method's pipeline over the final inputs, so its tables
 * equal those of a full re-index by construction; what makes it cheap is that every model answer
 * whose prompt did not change comes from the previous index's model_replies table (or the cache):
 * only new and edited text units are extracted, only changed description sets summarised, only
 * reports whose context changed regenerated. The run publishes a new generation like `index`
 * (index-generation.ts) after backing the previous index up to update_output/<timestamp>/previous/.
 */
import { remoteName } from '../../storage/object/remote.js'
import { join } from 'node:path'
import type { LoadedConfig } from '../../config/load.js'
import type { Settings } from '../../config/schema.js'
import { ConfigError, WorkflowError } from '../../errors.js'
import { getTokenizer } from '../../llm/tokenizer.js'
import { DOCUMENTS } from '../../model/documents.js'
import { pickColumns } from '../../model/schema.js'
import { copyIndexTree, readableIndexDir } from '../../storage/generations.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { loadDocuments } from '../input/load-documents.js'
import { chunkDocuments } from '../operations/chunk-text.js'
import { type DocumentChanges, documentChanges, hasChanges } from '../operations/document-changes.js'
import { chunksPerDocument, type ChunkFigures } from '../operations/estimate-usage.js'
import type { CostEstimate } from '../plan/estimate-cost.js'
import { estimateWorkflows } from '../plan/estimate-run.js'
import { measureUpdateReports, type UpdateReports } from '../plan/estimate-update.js'
import { type IndexMethod, METHODS, PIPELINES } from '../plan/pipelines.js'
import { requireEntitiesForUpdate } from '../plan/entity-switch.js'
import { SYSTEM_CLOCK } from '../workflow.js'
import type { ReplyReuse } from './reply-reuse.js'
import { configOf, runIndex, type IndexRunResult, type RunIndexOptions } from './runner.js'
import type { RunStatsFile } from './run-stats.js'
import { curationChanged } from '../operations/entity-resolution/curation-state.js'

export type { DocumentChanges } from '../operations/document-changes.js'

export interface UpdatePlan {
  /** The project's configuration, loaded once for the plan and the run. */
  config: LoadedConfig
  settings: Settings
  method: IndexMethod
  changes: DocumentChanges
  /** The documents to extract (new and edited), chunked as the pipeline would. */
  figures: ChunkFigures
  /**
   * The published index compared with, the ids of its documents, and those its edited and deleted
   * documents had there (for the estimate's report figures, estimate-update.ts).
   */
  indexDir: string
  /** Ours: curation.yaml's rules differ from those the index was built with. */
  curationChanged: boolean
  previousDocuments: string[]
  replaced: string[]
}

export type UpdateResult =
  | { upToDate: true; changes: DocumentChanges }
  | ({ upToDate: false; changes: DocumentChanges; backupDir: string } & IndexRunResult)

/** `standard-update` / `fast-update` (the reference's method names) mean standard / fast here. */
function updateMethod(method: string | undefined, settings: Settings): IndexMethod {
  const base = (method ?? settings.method ?? 'standard').replace(/-update$/, '')
  if (!(METHODS as readonly string[]).includes(base))
    throw new ConfigError(`--method: expected standard or fast (or standard-update, fast-update), got "${method}"`)
  return base as IndexMethod
}

/** Compares the input folder with the published index by document title and content (ids are content hashes). */
export async function planUpdate(options: RunIndexOptions, onWarning: (message: string) => void): Promise<UpdatePlan> {
  const config = configOf(options)
  const { settings } = config
  requireEntitiesForUpdate(settings)
  const method = updateMethod(options.method, settings)
  const indexDir = await readableIndexDir(settings.output_storage.base_dir)
  const store = new ParquetTableStore(indexDir)
  if (!(await store.has(DOCUMENTS.name))) {
    throw new WorkflowError(
      'load_update_documents',
      `there is no index to update in ${remoteName(indexDir)} (no documents.parquet); run \`graphrag index\` first`,
    )
  }
  // Titles and content hashes: the documents' text is not decoded.
  const previousDocuments = await store.read(pickColumns(DOCUMENTS, ['id', 'title']))
  const { documents } = await loadDocuments(
    { ...settings.input, baseDir: settings.input_storage.base_dir },
    { onWarning },
  )
  const changes = documentChanges(previousDocuments, documents)
  const previous = new Map(previousDocuments.map((d) => [d.title, d.id]))
  const changed = documents.filter((d) => previous.get(d.title) !== d.id)
  const rows = chunkDocuments(changed, settings.chunking, getTokenizer(settings.chunking.encoding_model))
  return {
    config,
    settings,
    method,
    changes,
    figures: {
      chunks: rows.length,
      chunkTokens: rows.reduce((sum, r) => sum + r.n_tokens, 0),
      chunksPerDocument: chunksPerDocument(rows),
    },
    indexDir,
    curationChanged: await curationChanged(store, settings),
    previousDocuments: [...previous.values()],
    replaced: [...changes.edited, ...changes.deleted].map((title) => previous.get(title)!),
  }
}

/** What `graphrag update --dry-run` shows: the plan, the communities the change reaches and the estimated usage. */
export interface UpdateEstimate {
  plan: UpdatePlan
  /** Undefined when nothing changed. */
  reports: UpdateReports | undefined
  estimate: CostEstimate | undefined
}

/** Plans the update and estimates its model usage; calls no model and writes nothing. */
export async function estimateUpdate(
  options: RunIndexOptions,
  onWarning: (message: string) => void,
): Promise<UpdateEstimate> {
  const plan = await planUpdate(options, onWarning)
  if (!hasChanges(plan.changes) && !plan.curationChanged) return { plan, reports: undefined, estimate: undefined }
  const reports = await measureUpdateReports(plan)
  const pipeline = PIPELINES[plan.method]
  const reach = 'reach' in reports ? reports.reach : undefined
  return { plan, reports, estimate: estimateWorkflows(plan.settings, pipeline, plan.figures, pipeline, reach) }
}

/** Runs the update; with nothing changed it returns at once, calling no model and writing nothing. */
export async function runUpdate(options: RunIndexOptions): Promise<UpdateResult> {
  const reporter = options.reporter
  const plan = await planUpdate(options, (message) => reporter?.warning(message))
  if (!hasChanges(plan.changes) && !plan.curationChanged) return { upToDate: true, changes: plan.changes }
  let backupDir = ''
  const reports = await measureUpdateReports(plan)
  const result = await runIndex({
    ...options,
    method: plan.method,
    update: {
      config: plan.config,
      changes: plan.changes,
      async prepare(run) {
        // Named as the user knows it: in object storage, its az:// or s3:// location.
        backupDir = remoteName(await backUp(plan.settings, (options.clock ?? SYSTEM_CLOCK).now()))
        run.log.info(`update: ${describeChanges(plan.changes)}; previous index backed up to ${backupDir}`)
        if (run.reuse !== undefined && !run.reuse.hadReplies) run.reporter.warning(NO_REPLIES_NOTICE)
      },
      record: (stats, reuse) => recordUpdate(stats, plan.changes, reuse, backupDir),
      estimate: { figures: plan.figures, reports: 'reach' in reports ? reports.reach : undefined },
    },
  })
  return { upToDate: false, changes: plan.changes, backupDir, ...result }
}

const NO_REPLIES_NOTICE =
  'the previous index has no model_replies table (built by Microsoft GraphRAG or an older graphrag): model answers are reused only where the LLM cache has them; the rest is recomputed'

export function describeChanges(changes: DocumentChanges): string {
  return `${changes.added.length} new, ${changes.edited.length} edited, ${changes.deleted.length} deleted, ${changes.unchanged} unchanged document(s)`
}

function recordUpdate(
  stats: RunStatsFile,
  changes: DocumentChanges,
  reuse: ReplyReuse | undefined,
  backupDir: string,
): void {
  stats.update_documents = changes.added.length + changes.edited.length
  stats.update = { ...changes, reused_model_replies: reuse?.reused ?? 0, backup: backupDir }
}

/** The reference's layout: update_output/<local %Y%m%d-%H%M%S>/previous/ holds every table of the previous index (LanceDB too). */
async function backUp(settings: Settings, now: Date): Promise<string> {
  const pad = (n: number) => String(n).padStart(2, '0')
  const stamp = `${now.getFullYear()}${pad(now.getMonth() + 1)}${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}${pad(now.getSeconds())}`
  const target = join(settings.update_output_storage.base_dir, stamp, 'previous')
  await copyIndexTree(await readableIndexDir(settings.output_storage.base_dir), target)
  return target
}
