/**
 * POST /ingest and GET /ingest/stream: the ingest API of the seed system, over our documents and
 * jobs. `path` (a file or a folder) is read only when its real path — symlinks resolved — lies
 * inside a folder of `server.ingest_roots`; no roots configured means ingest by path is off (403).
 * Its supported files are checked like uploads and stored in input_storage, then a job runs:
 * `incremental` (default server.ingest_incremental, true) is an update, false a full index.
 * The seed design's query parameters are honoured (ingest-params.ts): `refresh`, `progress`,
 * `wait`, and its result fields (chunks_new, …) and stage names are served beside ours.
 */
import type { Dirent } from 'node:fs'
import { readdir, readFile, realpath, stat } from 'node:fs/promises'
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path'
import type { Hono } from 'hono'
import { z } from 'zod'
import type { LoadedConfig } from '../config/index.js'
import { RequestError } from '../errors.js'
import { isAbsent, storageFailure } from '../storage/fs-errors.js'
import type { DocumentCatalog } from './documents.js'
import { safeFileName } from './documents.js'
import { kindOfName } from './file-sniff.js'
import type { IndexJob, IndexJobs } from './index-jobs.js'
import { streamEvents } from './index-stream.js'
import {
  type IngestQuery,
  ingestQuery,
  type RelationsOnlyQuery,
  relationsOnlyQuery,
  streamQuery,
} from './ingest-params.js'
import { relationsOnlyOrigin } from './ingest-relations.js'
import { indexContents, ingestFigures } from './ingest-summary.js'
import { awaitIngest } from './ingest-wait.js'
import { seedStages } from './seed-stages.js'
import { jsonWith, nonEmptyString } from './requests.js'

export const INGEST = z.object({
  path: nonEmptyString(),
  incremental: z.boolean({ error: 'expected true or false' }).optional(),
  method: z.enum(['standard', 'fast'], { error: 'expected one of standard, fast' }).optional(),
})

/** A folder with more files than this is refused rather than copied in one request. */
const MAX_INGEST_FILES = 10_000

type Settings = LoadedConfig['settings']

interface IngestParts {
  documents: DocumentCatalog
  jobs: IndexJobs
  config: () => LoadedConfig
  base?: string
}

/** A started ingest job and the fields of the 202 reply (the first fields of the 200 one when the request waits). */
interface Accepted {
  job: IndexJob
  fields: Record<string, unknown>
}

/** The path the request named, resolved in the project root, and the real path it leads to inside a root. */
interface IngestPlace {
  requested: string
  target: string
  roots: readonly string[]
}

export function registerIngestRoutes(app: Hono, parts: IngestParts): void {
  app.post('/ingest', jsonWith(INGEST), async (c) => {
    const body = c.req.valid('json')
    const query = ingestQuery(c)
    const relationsOnly = relationsOnlyQuery(c)
    const { settings } = parts.config()
    const running = parts.jobs.running()
    if (running !== undefined) throw new RequestError(409, `an index job is already running (job ${running.id})`)
    const place = await ingestPlace(settings, body.path)
    const accepted =
      relationsOnly !== undefined
        ? await startRelationsOnly(parts, settings, relationsOnly, place)
        : await startIngest(parts, settings, body, query, place)
    if (!query.wait) return c.json(accepted.fields, 202)
    const outcome = await awaitIngest(accepted.job, query.progress, c.req.raw.signal)
    return c.json({ ...accepted.fields, ...outcome.body }, outcome.status)
  })
  app.get('/ingest/stream', (c) => {
    const { job: id, path, relationsOnly } = streamQuery(c)
    const job =
      id !== undefined
        ? parts.jobs.get(id)
        : parts.jobs.ingestOf(resolve(parts.config().settings.root, path), relationsOnly ? 'relations' : undefined)
    if (job === undefined)
      throw new RequestError(
        404,
        id !== undefined
          ? `job: no index job ${id}`
          : `path: no ${relationsOnly ? 'relations-only ' : ''}ingest job has read ${path} (POST /ingest${relationsOnly ? '?inc_rel_only=true' : ''} starts one)`,
      )
    return streamEvents(c, job, seedStages(job.ingest?.patch))
  })
}

async function ingestPlace(settings: Settings, path: string): Promise<IngestPlace> {
  const configured = (settings.server.ingest_roots ?? []).map((root) => resolve(settings.root, root))
  const roots = await realRoots(configured)
  const requested = resolve(settings.root, path)
  return { requested, target: await insideRoots(requested, configured, roots), roots }
}

const streamUrl = (parts: IngestParts, job: IndexJob) => `${parts.base ?? ''}/ingest/stream?job=${job.id}`

async function startRelationsOnly(
  parts: IngestParts,
  settings: Settings,
  relationsOnly: RelationsOnlyQuery,
  { requested, target }: IngestPlace,
): Promise<Accepted> {
  const origin = await relationsOnlyOrigin(settings, parts.documents, relationsOnly, {
    requested,
    target,
  })
  const job = parts.jobs.start('relations', undefined, origin)
  return { job, fields: { job: job.id, mode: job.mode, stream: streamUrl(parts, job) } }
}

/** Stores the supported files found at the place, then starts an update (or a full index) over them. */
async function startIngest(
  parts: IngestParts,
  settings: Settings,
  body: z.infer<typeof INGEST>,
  query: IngestQuery,
  { requested, target, roots }: IngestPlace,
): Promise<Accepted> {
  const { files, skipped } = await collect(target, roots, settings.server.max_upload_bytes)
  if (files.length === 0)
    throw new RequestError(
      400,
      `path: no file there that graphrag reads${skipped.length > 0 ? ` (${skipped.length} skipped)` : ''}`,
    )
  const limits = { maxExpandedBytes: settings.server.max_upload_expanded_bytes }
  const before = await indexContents(settings)
  const stored = await parts.documents.store(files, limits)
  // The request's word, else the setting; `refresh` rebuilds everything (the design's full re-ingest).
  const incremental = !query.refresh && (query.incremental ?? body.incremental ?? settings.server.ingest_incremental)
  // incremental maps to update; with no index yet there is nothing to update, so the first ingest indexes.
  const mode = incremental && (await parts.documents.hasIndex()) ? 'update' : 'index'
  const startedAt = Date.now()
  const figures = async () => ({
    files_processed: files.length,
    ...ingestFigures(before, await indexContents(parts.config().settings)),
    elapsed_sec: Math.round((Date.now() - startedAt) / 10) / 100,
    incremental,
    refresh: query.refresh,
  })
  // The design's "refresh without :REL": the chunk graph's model-made relations are off for this run.
  const overrides = query.relations ? undefined : { GRAPHRAG_CHUNK_GRAPH__LLM_EDGES: 'false' }
  const job = parts.jobs.start(mode, body.method, {
    paths: [requested, target],
    figures,
    ...(overrides === undefined ? {} : { overrides }),
  })
  const fields = {
    job: job.id,
    mode,
    stream: streamUrl(parts, job),
    files: files.map((f) => f.name),
    documents: stored,
  }
  return { job, fields: { ...fields, skipped } }
}

async function realRoots(configured: readonly string[]): Promise<string[]> {
  if (configured.length === 0)
    throw new RequestError(403, 'ingest by path is off: list the folders it may read in server.ingest_roots')
  const roots: string[] = []
  for (const root of configured) {
    try {
      roots.push(await realpath(root))
    } catch (error) {
      // A root that does not exist allows nothing; one that cannot be resolved (EACCES, ELOOP) is a fault to name.
      if (!isAbsent(error)) throw storageFailure(error, 'resolve', root)
    }
  }
  return roots
}

/**
 * The real path of `path` when it lies inside one of `roots`; 403 otherwise. Outside the roots as
 * written nothing is looked at (not even whether it exists); inside, an absent path is a 404.
 */
async function insideRoots(path: string, configured: readonly string[], roots: readonly string[]): Promise<string> {
  if (!configured.some((root) => contains(root, path)) && !roots.some((root) => contains(root, path)))
    throw new RequestError(403, `path: ${path} is outside server.ingest_roots`)
  let real: string
  try {
    real = await realpath(path)
  } catch (error) {
    // Only a path that is not there is a 404; EACCES or ELOOP is a failure named with its path.
    if (isAbsent(error) || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
      throw new RequestError(404, `path: ${path} does not exist`)
    throw storageFailure(error, 'resolve', path)
  }
  if (!roots.some((root) => contains(root, real)))
    throw new RequestError(403, `path: ${path} is outside server.ingest_roots`)
  return real
}

function contains(root: string, path: string): boolean {
  const rel = relative(root, path)
  return rel === '' || (!rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel))
}

interface Collected {
  files: Array<{ name: string; bytes: Uint8Array }>
  skipped: Array<{ path: string; reason: string }>
}

/** A file as itself; a folder's supported files (hidden ones left out) under `<folder name>/…`. */
async function collect(target: string, roots: readonly string[], maxBytes: number): Promise<Collected> {
  const out: Collected = { files: [], skipped: [] }
  if (!(await stat(target)).isDirectory()) {
    await add(out, target, safeFileName(basename(target)), maxBytes)
    return out
  }
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const entries: Dirent[] = await readdir(dir, { withFileTypes: true })
    for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
      if (entry.name.startsWith('.')) continue
      const full = join(dir, entry.name)
      const name = `${prefix}/${entry.name}`
      // A link may point anywhere: what it reaches must be inside the roots too.
      const real = await resolvedEntry(full)
      if (real === undefined) {
        out.skipped.push({ path: name, reason: 'broken link (its target does not exist)' })
        continue
      }
      if (!roots.some((root) => contains(root, real))) {
        out.skipped.push({ path: name, reason: 'outside server.ingest_roots' })
        continue
      }
      if ((await stat(real)).isDirectory()) {
        if (entry.isSymbolicLink()) out.skipped.push({ path: name, reason: 'linked folder (not followed)' })
        else await walk(full, name)
      } else await add(out, real, name, maxBytes)
      if (out.files.length > MAX_INGEST_FILES)
        throw new RequestError(413, `path: more than ${MAX_INGEST_FILES} files; ingest its folders one at a time`)
    }
  }
  await walk(target, safeFileName(basename(target)))
  return out
}

async function add(out: Collected, path: string, name: string, maxBytes: number): Promise<void> {
  if (kindOfName(name) === undefined) {
    out.skipped.push({ path: name, reason: 'no reader for this file type' })
    return
  }
  if ((await stat(path)).size > maxBytes) {
    out.skipped.push({ path: name, reason: `larger than ${maxBytes} bytes (server.max_upload_bytes)` })
    return
  }
  out.files.push({ name, bytes: new Uint8Array(await readFile(path)) })
}

/** The real path of a folder entry; undefined for a link whose target is missing. Any other failure names the entry. */
async function resolvedEntry(path: string): Promise<string | undefined> {
  try {
    return await realpath(path)
  } catch (error) {
    if (isAbsent(error)) return undefined
    throw storageFailure(error, 'resolve', path)
  }
}
