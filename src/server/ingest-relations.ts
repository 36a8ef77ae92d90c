/**
 * POST /ingest?inc_rel_only=true: the seed design's relations-only incremental mode. The file at
 * `path` must be in the index already; its last text units (after `new_after`, or the last
 * `new_count`) are new, and a job re-runs create_chunk_graph alone with the chunk_graph keys of
 * refresh_documents / refresh_new_units set for that run: typed edges are sought among the new units
 * and the window of old units before them, added to the kept ones, none removed
 * (src/index/operations/chunk-graph/refresh.ts). Its result: `mode: "relations_incremental"`,
 * `created`, `skipped`, `pairs`, `old`, `new`, `window`.
 */
import { readFile, stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import type { Settings } from '../config/index.js'
import { RequestError } from '../errors.js'
import { refreshPlan } from '../index/operations/chunk-graph/refresh.js'
import { refreshEnv } from '../index/workflows/chunk-graph-refresh.js'
import { pickColumns, TEXT_UNITS } from '../model/index.js'
import { readableIndexDir } from '../storage/generations.js'
import { ParquetTableStore } from '../storage/index.js'
import type { DocumentCatalog } from './documents.js'
import { safeFileName } from './documents.js'
import type { IngestOrigin } from './index-jobs.js'
import type { RelationsOnlyQuery } from './ingest-params.js'

const UNIT_COLUMNS = pickColumns(TEXT_UNITS, ['id', 'human_readable_id', 'document_id'])
type Unit = { id: string; human_readable_id: number; document_id: string }

/** The ids of the indexed documents read from `target` (a file); 404 / 409 when it is not, or no longer, what the index holds. */
async function indexedDocuments(documents: DocumentCatalog, requested: string, target: string): Promise<string[]> {
  const file = await stat(target)
  if (file.isDirectory())
    throw new RequestError(400, 'path: inc_rel_only=true takes one file (the file whose new units get relations)')
  const name = safeFileName(basename(target))
  const entries = (await documents.list()).filter((e) => e.file === name)
  // The source grown since its copy was ingested (the design's appended chunks) is not in the index yet.
  const grown = entries.length === 1 && entries[0]!.size !== file.size
  if (grown || entries.some((e) => e.status === 'edited' || e.status === 'new'))
    throw new RequestError(
      409,
      `path: ${requested} changed since it was indexed; POST /ingest it first, then add its relations with inc_rel_only=true`,
    )
  const ids = entries.filter((e) => e.status === 'indexed').map((e) => e.id)
  if (ids.length === 0)
    throw new RequestError(404, `path: ${requested} is not in the index (POST /ingest indexes it first)`)
  return ids
}

/** How many of the documents' last units are new, and which documents that applies to. */
function newUnits(
  units: readonly Unit[],
  documents: readonly string[],
  query: RelationsOnlyQuery,
  requested: string,
): { documents: string[]; count: number } {
  const { boundary } = query
  if ('count' in boundary) {
    for (const id of documents) {
      const own = units.filter((u) => u.document_id === id).length
      if (boundary.count > own)
        throw new RequestError(400, `new_count: ${requested} has ${own} text units, fewer than ${boundary.count}`)
    }
    return { documents: [...documents], count: boundary.count }
  }
  const last = units.find(
    (u) =>
      documents.includes(u.document_id) && (u.id === boundary.after || String(u.human_readable_id) === boundary.after),
  )
  if (last === undefined)
    throw new RequestError(400, `new_after: no text unit of ${requested} has the id ${JSON.stringify(boundary.after)}`)
  const own = units.filter((u) => u.document_id === last.document_id)
  const count = own.length - 1 - own.indexOf(last)
  if (count === 0)
    throw new RequestError(
      400,
      `new_after: ${boundary.after} is the last text unit of ${requested}; no unit follows it`,
    )
  return { documents: [last.document_id], count }
}

/** The job's origin: the run's chunk_graph keys, the patch's figures and its result fields. */
export async function relationsOnlyOrigin(
  settings: Settings,
  documents: DocumentCatalog,
  query: RelationsOnlyQuery,
  paths: { requested: string; target: string },
): Promise<IngestOrigin> {
  const docIds = await indexedDocuments(documents, paths.requested, paths.target)
  const outputDir = await readableIndexDir(settings.output_storage.base_dir)
  const units = await new ParquetTableStore(outputDir).read(UNIT_COLUMNS)
  const scope = newUnits(units, docIds, query, paths.requested)
  const window = query.window ?? settings.chunk_graph.batch_size
  const plan = refreshPlan(
    units.map((u) => ({ ...u, text: '', entity_ids: null })),
    { documents: new Set(scope.documents), newUnits: scope.count, batchSize: window, batchOverlap: 0 },
  )
  const overrides = refreshEnv({
    documents: scope.documents,
    newUnits: scope.count,
    window,
    truncateTokens: query.truncateChars === undefined ? undefined : Math.ceil(query.truncateChars / 4),
    temperature: query.temperature,
    llmEdges: true,
  })
  const patch = { old: plan.old, new: plan.new, window, pairs: plan.pairs }
  const startedAt = Date.now()
  const figures = async () => ({
    mode: 'relations_incremental',
    ...(await patchCounts(settings)),
    ...patch,
    files_processed: 1,
    elapsed_sec: Math.round((Date.now() - startedAt) / 10) / 100,
  })
  return { paths: [paths.requested, paths.target], figures, overrides, patch }
}

/** created / skipped of the run, from create_chunk_graph's summary in the published stats.json. */
async function patchCounts(settings: Settings): Promise<{ created: number; skipped: number }> {
  const file = join(await readableIndexDir(settings.output_storage.base_dir), 'stats.json')
  const stats = JSON.parse(await readFile(file, 'utf8')) as {
    workflows?: Record<string, { summary?: Record<string, unknown> }>
  }
  const summary = stats.workflows?.create_chunk_graph?.summary ?? {}
  return { created: Number(summary.refresh_created ?? 0), skipped: Number(summary.refresh_skipped ?? 0) }
}
