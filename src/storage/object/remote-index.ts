/**
 * The index, its inputs and its logs on object storage, as seen by the commands: readers get a
 * local copy of the published generation; a run holds the store's lock, works in the local
 * mirror as on disk, and publishes by uploading a new generation and switching the pointer.
 */
import { cp, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { StorageError } from '../../errors.js'
import { writeFileAtomic } from '../atomic-write.js'
import { parseJson, readMarker } from '../fs-errors.js'
import type { RunLock } from '../run-lock.js'
import { localFiles, mirrorPrefix, uploadFiles } from './folder-sync.js'
import {
  collectGenerations,
  lockKey,
  newGenerationId,
  type Pointer,
  prunePulled,
  publishPointer,
  pullGeneration,
  pulledDir,
  readPointer,
  uploadGeneration,
} from './generations.js'
import { acquireObjectLock } from './object-lock.js'
import { joinKey, storageRetries } from './object-store.js'
import { type RemoteLocation, remoteAt } from './remote.js'
import { restoreWork, type WorkSaver, workSaver } from './work-state.js'

/** How long a reader trusts the pointer it read (serve answers many queries a second; a publish shows within this). */
const POINTER_TTL_MS = 2_000
const pointers = new Map<string, { at: number; value: Promise<Pointer | undefined> }>()

async function currentPointer(loc: RemoteLocation, fresh = false): Promise<Pointer | undefined> {
  const cached = pointers.get(loc.url)
  if (!fresh && cached !== undefined && Date.now() - cached.at < POINTER_TTL_MS) return cached.value
  const value = readPointer(loc).then((p) => p?.pointer)
  pointers.set(loc.url, { at: Date.now(), value })
  value.catch(() => pointers.delete(loc.url))
  return value
}

/**
 * For a reader: the local folder holding the published generation of the index mirrored at
 * `mirror`, pulled if needed; undefined when `mirror` is a plain folder or no index was published.
 */
export async function readableRemoteIndex(mirror: string): Promise<string | undefined> {
  const loc = remoteAt(mirror)
  if (loc === undefined) return undefined
  const pointer = await currentPointer(loc)
  if (pointer === undefined) {
    await refuseIndexWithoutGenerations(loc)
    return undefined
  }
  const dir = pulledDir(mirror, pointer.generation)
  await pullGeneration(loc, pointer.generation, dir)
  await prunePulled(mirror, [pointer.generation, pointer.previous])
  return dir
}

/**
 * An index with its tables directly under base_dir and no pointer (Microsoft GraphRAG writes so) is
 * not read in place: one message naming its location and what to do, rather than "no index yet"
 * naming the local mirror.
 */
async function refuseIndexWithoutGenerations(loc: RemoteLocation): Promise<void> {
  const key = joinKey(loc.prefix, 'text_units.parquet')
  if (!(await loc.store().list(key)).some((o) => o.key === key)) return
  throw new StorageError(
    `${loc.url} holds an index without generations (its tables directly under ${loc.setting}.base_dir, as Microsoft GraphRAG writes them); graphrag reads an index in object storage from ${loc.url}/.generations/current.json, which it writes when it publishes. Copy the tables to a local folder and set ${loc.setting}.type: file with base_dir there, or build the index with graphrag index`,
  )
}

/** Where the published generation of an index in object storage is, for diagnostics and serve's start-up line. */
export interface PublishedGeneration {
  /** `az://container/<base_dir>/.generations/<id>` or `s3://bucket/<base_dir>/.generations/<id>`. */
  location: string
  generation: string
  previous: string | null
  published: string
  /** The key prefix holding its tables: Microsoft GraphRAG reads them with this as output_storage.base_dir. */
  base_dir: string
}

/** The published generation of the index mirrored at `mirror` (undefined: a plain folder, or nothing published yet). */
export async function publishedIndex(mirror: string): Promise<PublishedGeneration | undefined> {
  const loc = remoteAt(mirror)
  const pointer = loc === undefined ? undefined : await currentPointer(loc)
  if (loc === undefined || pointer === undefined) return undefined
  return {
    location: generationUrl(loc, pointer.generation),
    generation: pointer.generation,
    previous: pointer.previous,
    published: pointer.published,
    base_dir: joinKey(loc.prefix, '.generations', pointer.generation),
  }
}

/** The published generation's id (undefined: none, or not object storage), for watchers such as serve. */
async function publishedGeneration(mirror: string): Promise<string | undefined> {
  const loc = remoteAt(mirror)
  return loc === undefined ? undefined : (await currentPointer(loc, true))?.generation
}

/** Brings a mirrored input folder up to date with its container or bucket (no-op for a plain folder). */
const inputSyncs = new Map<string, Promise<void>>()
export async function syncRemoteInput(dir: string): Promise<void> {
  const loc = remoteAt(dir)
  if (loc === undefined) return
  // Concurrent callers (the fingerprint and the loader) share one sync.
  let sync = inputSyncs.get(dir)
  if (sync === undefined) {
    sync = (async () => {
      await loc.store().check(loc.setting)
      await mirrorPrefix(loc.store(), loc.prefix, dir)
    })().finally(() => inputSyncs.delete(dir))
    inputSyncs.set(dir, sync)
  }
  await sync
}

export interface RemoteRun {
  lock: RunLock
  /** Where the unfinished run's work is saved in the store, for messages. */
  readonly workUrl: string
  /**
   * Makes `workDir` hold the work an unfinished run saved in the store (from any machine) when
   * the local folder is not already that work or newer (`localCurrent`), and saves this run's
   * work there from now on (see work-state.ts). True when the folder was restored.
   */
  openWork(workDir: string, localCurrent: boolean, restore?: boolean): Promise<boolean>
  /** Saves the work folder in the store soon (after each finished workflow). */
  checkpoint(): void
  /**
   * Uploads the finished work folder as a new generation and switches the pointer to it; then
   * `local()` publishes the mirror. Returns the generation's location (`az://…/.generations/<id>`).
   */
  publish(workDir: string, local: () => Promise<void>): Promise<string>
  /**
   * Saves the work of a run that did not publish, uploads the logs and update backups, releases the
   * lock (success or not). Returns warnings for the console (the work could not be saved).
   */
  finish(): Promise<string[]>
}

export interface RemoteRunDirs {
  output: string
  reporting: string
  updateOutput: string
  /** cache.storage's folder, checked with the others (undefined: no persistent cache). */
  cache: string | undefined
}

/**
 * Starts a run on an object-storage index: checks each store (one clear error naming the setting,
 * before any model call), takes the lock, and makes the mirror folder hold the published
 * generation. Undefined when the output is a plain folder.
 */
export async function beginRemoteRun(dirs: RemoteRunDirs, command: string): Promise<RemoteRun | undefined> {
  const loc = remoteAt(dirs.output)
  if (loc === undefined) return undefined
  const reporting = remoteAt(dirs.reporting)
  const updateOutput = remoteAt(dirs.updateOutput)
  const cache = dirs.cache === undefined ? undefined : remoteAt(dirs.cache)
  const retriesAtStart = storageRetries()
  for (const l of [loc, reporting, updateOutput, cache]) await l?.store().check(l.setting)
  const lock = await acquireObjectLock(loc.store(), lockKey(loc), command)
  try {
    const found = await readPointer(loc)
    await mirrorPublished(loc, dirs.output, found?.pointer)
    // The log is appended to: continue the one in the store.
    if (reporting !== undefined) await mirrorPrefix(reporting.store(), reporting.prefix, dirs.reporting)
    const origin = found?.pointer.generation ?? null
    let saver: WorkSaver | undefined
    const workUrl = `${loc.url}/.generations/.work`
    return {
      lock,
      workUrl,
      async openWork(workDir, localCurrent, restore = true) {
        const { restored, etag } = await restoreWork(loc, origin, workDir, localCurrent, restore)
        saver = workSaver(loc, origin, workDir, etag)
        return restored
      },
      checkpoint() {
        saver?.schedule()
      },
      async publish(workDir, local) {
        // The publish supersedes the saved work (deleted below with the generations no longer needed).
        await saver?.stop()
        // An update's backup of the index it replaces goes up before the pointer moves: a run killed
        // after the switch leaves it whole (the re-run is "up to date" and would never send the rest).
        if (updateOutput !== undefined) await pushFiles(updateOutput, dirs.updateOutput, true)
        const id = newGenerationId()
        const stats = { file: 'stats.json', prepare: () => recordRetries(workDir, storageRetries() - retriesAtStart) }
        await uploadGeneration(loc, id, workDir, stats)
        await publishPointer(loc, id, found?.pointer.generation ?? null, found?.etag)
        const marker = markerFile(dirs.output)
        await rm(marker, { force: true })
        await local()
        await writeFileAtomic(marker, id)
        pointers.delete(loc.url)
        await collectGenerations(loc, [id, found?.pointer.generation ?? null])
        return generationUrl(loc, id)
      },
      async finish() {
        const warnings: string[] = []
        try {
          // A failed or interrupted run saves where it got to, for the next run on any machine.
          await saver?.flush()
          if (saver?.error !== undefined)
            warnings.push(
              `could not save this run's work in ${workUrl} (${saver.error instanceof Error ? saver.error.message : String(saver.error)}); a run on another machine resumes from an earlier save or starts over`,
            )
          if (reporting !== undefined) await pushFiles(reporting, dirs.reporting)
          if (updateOutput !== undefined) await pushFiles(updateOutput, dirs.updateOutput, true)
        } finally {
          await lock.release()
        }
        return warnings
      },
    }
  } catch (error) {
    await lock.release()
    throw error
  }
}

/**
 * Makes the writer's mirror folder the published generation. A marker beside it names the
 * generation it holds; when the pointer names another (or none), the folder is replaced, which
 * also drops a work generation seeded from the old one (generations.ts compares identities).
 */
async function mirrorPublished(loc: RemoteLocation, mirror: string, pointer: Pointer | undefined): Promise<void> {
  const marker = markerFile(mirror)
  const held = await readMarker(marker)
  if (held !== undefined && held === pointer?.generation) return
  await rm(marker, { force: true })
  if (pointer === undefined) {
    await rm(mirror, { recursive: true, force: true })
    return
  }
  const pulled = pulledDir(mirror, pointer.generation)
  await pullGeneration(loc, pointer.generation, pulled)
  // A copy, not links: the mirror is written by runs, the pulled generation is read by queries.
  await rm(mirror, { recursive: true, force: true })
  await cp(pulled, mirror, { recursive: true })
  await rm(join(mirror, '.manifest.json'), { force: true })
  await writeFileAtomic(marker, pointer.generation)
}

/** Where generation `id` lives in the store: Microsoft GraphRAG reads it with this as output_storage.base_dir. */
function generationUrl(loc: RemoteLocation, id: string): string {
  return `${loc.url}/.generations/${id}`
}

function markerFile(mirror: string): string {
  return `${mirror}.generation`
}

/** Uploads the folder's files; with `onlyNew`, those the store does not have yet (update backups never change). */
async function pushFiles(loc: RemoteLocation, dir: string, onlyNew = false): Promise<void> {
  const base = loc.prefix === '' ? '' : `${loc.prefix}/`
  const present = onlyNew ? new Set((await loc.store().list(base)).map((o) => o.key.slice(base.length))) : new Set()
  const files = (await localFiles(dir)).filter((rel) => !present.has(rel))
  await uploadFiles(loc.store(), dir, files, loc.prefix)
}

/**
 * Polls the pointer of an index in object storage and calls `onChange` when another generation
 * is published (serve drops its cached answers; the next query reads the new generation).
 */
export function watchPublished(mirror: string, onChange: (generation: string) => void, everyMs = 5_000): () => void {
  if (remoteAt(mirror) === undefined) return () => {}
  let last: string | undefined
  let first = true
  const timer = setInterval(() => {
    publishedGeneration(mirror).then(
      (now) => {
        if (!first && now !== undefined && now !== last) onChange(now)
        first = false
        last = now
      },
      () => {}, // unreachable for a moment: the next poll tries again, queries report their own errors
    )
  }, everyMs)
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * stats.json tells how many transient store failures (500/503/429, resets, unanswered tries) this
 * run rode out by resending, up to the upload of stats.json itself (the generation's other files
 * are up by then; a server that runs several jobs counts each job's own).
 */
async function recordRetries(workDir: string, retries: number): Promise<void> {
  const file = join(workDir, 'stats.json')
  const stats = parseJson<Record<string, unknown>>(await readFile(file, 'utf8').catch(() => ''))
  if (stats === undefined) return
  await writeFileAtomic(file, `${JSON.stringify({ ...stats, storage_retries: retries }, null, 4)}\n`)
}
