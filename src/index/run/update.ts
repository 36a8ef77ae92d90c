/**
 * `graphrag update`: brings the index up to date with the input folder (new, edited and deleted
 * documents). An update is a full run of the method's pipeline over the final inputs, so its tables
 * equal those of a full re-index by construction; what makes it cheap is that every model answer
 * whose prompt did not change comes from the previous index's model_replies table (or the cache):
 * only new and edited text units are extracted, only changed description sets summarised, only
 * reports whose context changed regenerated. The run publishes a new generation like `index`
 * (index-generation.ts) after backing the previous index up to update_output/<timestamp>/previous/.
 */
import { join } from 'node:path'
import { loadConfig } from '../../config/load.js'
import type { Settings } from '../../config/schema.js'
import { ConfigError, GraphragError } from '../../errors.js'
import { getTokenizer } from '../../llm/tokenizer.js'
import { DOCUMENTS } from '../../model/documents.js'
import type { InputDocumentRow } from '../../model/documents.js'
import { copyIndexTree, readableIndexDir } from '../../storage/generations.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { loadDocuments } from '../input/load-documents.js'
import { chunkDocuments } from '../operations/chunk-text.js'
import type { ChunkFigures } from '../operations/estimate-usage.js'
import { measureUpdateReports } from '../plan/estimate-update.js'
import { METHODS, type IndexMethod } from '../plan/pipelines.js'
import type { ReplyReuse } from './reply-reuse.js'
import { runIndex, type IndexRunResult, type RunIndexOptions } from './runner.js'
import type { RunStatsFile } from './run-stats.js'

export interface DocumentChanges {
  added: string[]
  edited: string[]
  deleted: string[]
  unchanged: number
}

export interface UpdatePlan {
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
  const { settings } = loadConfig({ root: options.root, configFile: options.configFile, env: options.env })
  const method = updateMethod(options.method, settings)
  const indexDir = await readableIndexDir(settings.output_storage.base_dir)
  const store = new ParquetTableStore(indexDir)
  if (!(await store.has(DOCUMENTS.name))) {
    throw new GraphragError(
      'WORKFLOW',
      `there is no index to update in ${indexDir} (no documents.parquet); run \`graphrag index\` first`,
    )
  }
  const previous = new Map((await store.read(DOCUMENTS)).map((d) => [d.title, d.id]))
  const { documents } = await loadDocuments(
    { ...settings.input, baseDir: settings.input_storage.base_dir },
    { onWarning },
  )
  const changes: DocumentChanges = { added: [], edited: [], deleted: [], unchanged: 0 }
  const changed: InputDocumentRow[] = []
  const titles = new Set<string>()
  for (const doc of documents) {
    titles.add(doc.title)
    const before = previous.get(doc.title)
    if (before === doc.id) changes.unchanged++
    else {
      ;(before === undefined ? changes.added : changes.edited).push(doc.title)
      changed.push(doc)
    }
  }
  changes.deleted = [...previous.keys()].filter((t) => !titles.has(t)).sort()
  changes.added.sort()
  changes.edited.sort()
  const rows = chunkDocuments(changed, settings.chunking, getTokenizer(settings.chunking.encoding_model))
  return {
    settings,
    method,
    changes,
    figures: { chunks: rows.length, chunkTokens: rows.reduce((sum, r) => sum + r.n_tokens, 0) },
    indexDir,
    previousDocuments: [...previous.values()],
    replaced: [...changes.edited, ...changes.deleted].map((title) => previous.get(title)!),
  }
}

export function hasChanges(changes: DocumentChanges): boolean {
  return changes.added.length + changes.edited.length + changes.deleted.length > 0
}

/** Runs the update; with nothing changed it returns at once, calling no model and writing nothing. */
export async function runUpdate(options: RunIndexOptions): Promise<UpdateResult> {
  const reporter = options.reporter
  const plan = await planUpdate(options, (message) => reporter?.warning(message))
  if (!hasChanges(plan.changes)) return { upToDate: true, changes: plan.changes }
  let backupDir = ''
  const reports = await measureUpdateReports(plan)
  const result = await runIndex({
    ...options,
    method: plan.method,
    update: {
      async prepare(run) {
        backupDir = await backUp(plan.settings, (options.clock ?? { now: () => new Date() }).now())
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
