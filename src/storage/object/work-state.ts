/**
 * The unfinished run's work generation, kept in the store so that a run killed on one machine
 * resumes on another (a new CI job starts from an empty folder) as it would on the first one.
 * After each finished workflow the work folder (tables, LanceDB files, the resume record,
 * stats.json) is saved; the next run on the same published generation restores it and resumes.
 * Layout under output_storage.base_dir (<base>):
 *
 *   <base>/.generations/.work/state.json        {"origin": id|null, "id": ..., "files": {path: sha256}}
 *   <base>/.generations/.work/blobs/<sha256>    file contents, by content (unchanged files are sent once)
 *
 * state.json is written last, so it only ever names blobs that are there: a kill mid-save leaves
 * the previous save whole. It is written with a conditional write (replace only what this run
 * wrote or found), so a run whose lock was taken over cannot overwrite its successor's state.
 * Readers never look here (they follow the pointer), and a publish deletes it with the other
 * generations it no longer needs. `origin` is the published generation the work began from: a
 * saved state for another origin is stale and ignored (the first save of the next run replaces it).
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { StorageError } from '../../errors.js'
import { writeFileAtomic } from '../atomic-write.js'
import { parseJson, readMarker } from '../fs-errors.js'
import { inParallel, localFiles } from './folder-sync.js'
import { ConditionFailedError, joinKey } from './object-store.js'
import type { RemoteLocation } from './remote.js'

interface WorkState {
  origin: string | null
  /** Unique per save: a local work folder restored from (or saved as) this state records it. */
  id: string
  saved: string
  files: Record<string, string>
}

const stateKey = (loc: RemoteLocation): string => joinKey(loc.prefix, '.generations', '.work', 'state.json')
const blobPrefix = (loc: RemoteLocation): string => joinKey(loc.prefix, '.generations', '.work', 'blobs')

/** The saved work state and its ETag, undefined when there is none or it is not ours. */
async function readWorkState(loc: RemoteLocation): Promise<{ state: WorkState; etag: string } | undefined> {
  const object = await loc.store().get(stateKey(loc))
  if (object === undefined) return undefined
  const state = parseJson<WorkState>(new TextDecoder().decode(object.body))
  if (state === undefined || typeof state.id !== 'string' || typeof state.files !== 'object' || state.files === null)
    return { state: { origin: '', id: '', saved: '', files: {} }, etag: object.etag }
  return { state, etag: object.etag }
}

/** The file beside a local work folder naming the saved state it was restored from or last saved as. */
function savedMarker(workDir: string): string {
  return `${workDir}.saved`
}

export interface WorkSaver {
  /** Saves the work folder soon (in the background; saves asked for meanwhile are merged into one). */
  schedule(): void
  /** Waits for the save under way, then saves once more (the folder as the run leaves it). */
  flush(): Promise<void>
  /** Cuts the save under way short (no new upload starts, its state is not written) and makes no more: a publish supersedes them. */
  stop(): Promise<void>
  /** Why the latest save failed (undefined once a save succeeds, or after stop): the run goes on, and the next run resumes from an older save or starts over. */
  readonly error: unknown
}

/**
 * Brings a saved work state for `origin` into `workDir` unless the local folder already is that
 * state or newer (`localCurrent`: the local work folder began from the same published
 * generation). Returns whether the work folder was replaced, and the saved state's ETag (the
 * first save of this run replaces exactly that).
 */
export async function restoreWork(
  loc: RemoteLocation,
  origin: string | null,
  workDir: string,
  localCurrent: boolean,
  restore = true,
): Promise<{ restored: boolean; etag: string | undefined }> {
  const found = await readWorkState(loc)
  // Not restored (a run started with --no-resume), but its etag is kept: this run's saves replace it conditionally.
  if (found === undefined || found.state.origin !== origin || !restore) return { restored: false, etag: found?.etag }
  const marker = savedMarker(workDir)
  if (localCurrent && (await readMarker(marker)) === found.state.id) return { restored: false, etag: found.etag }
  // Into a temporary sibling, then renamed: a killed restore never leaves a half work folder.
  const partial = `${workDir}.restoring-${process.pid}`
  await rm(partial, { recursive: true, force: true })
  try {
    await inParallel(Object.entries(found.state.files), async ([path, hash]) => {
      const object = await loc.store().get(joinKey(blobPrefix(loc), hash))
      if (object === undefined)
        throw new StorageError(`${loc.url}/.generations/.work: saved file ${path} is missing; the run starts over`)
      await mkdir(dirname(join(partial, path)), { recursive: true })
      await writeFileAtomic(join(partial, path), object.body)
    })
  } catch (error) {
    await rm(partial, { recursive: true, force: true })
    if (error instanceof StorageError) return { restored: false, etag: found.etag }
    throw error
  }
  await mkdir(partial, { recursive: true })
  await rm(workDir, { recursive: true, force: true })
  await mkdir(dirname(workDir), { recursive: true })
  await rename(partial, workDir)
  await writeFileAtomic(marker, found.state.id)
  return { restored: true, etag: found.etag }
}

/**
 * Saves `workDir` for a run that began from published generation `origin`. `expected` is the
 * ETag of the saved state found when the run began (undefined: none), so the first save replaces
 * exactly that and nothing a later run wrote.
 */
export function workSaver(
  loc: RemoteLocation,
  origin: string | null,
  workDir: string,
  expected: string | undefined,
): WorkSaver {
  let etag = expected
  let running: Promise<void> | undefined
  let wanted = false
  let stopped = false
  let failure: unknown
  const blobs = new WorkBlobs(loc, workDir)

  const save = async (): Promise<void> => {
    const files = await uploadWork(blobs, workDir, () => stopped)
    if (stopped) return
    const state = newWorkState(origin, files)
    try {
      etag = await putWorkState(loc, state, etag)
    } catch (error) {
      // Another run took the lock over and saves its own work now: stop, never overwrite it.
      if (error instanceof ConditionFailedError) stopped = true
      throw error
    }
    await writeFileAtomic(savedMarker(workDir), state.id)
    failure = undefined
    await blobs.prune(new Set(Object.values(files)))
  }

  const pump = (): void => {
    if (running !== undefined || !wanted || stopped) return
    wanted = false
    running = save()
      .catch((error: unknown) => {
        failure = error
      })
      .finally(() => {
        running = undefined
        pump()
      })
  }

  return {
    schedule() {
      wanted = true
      pump()
    },
    async flush() {
      while (running !== undefined) await running
      wanted = true
      pump()
      while (running !== undefined) await running
    },
    async stop() {
      stopped = true
      while (running !== undefined) await running
      failure = undefined
    },
    get error() {
      return failure
    },
  }
}

/** Sends the work folder's changed files; returns each file's content hash (partial once `stopped` says so). */
async function uploadWork(blobs: WorkBlobs, workDir: string, stopped: () => boolean): Promise<Record<string, string>> {
  await blobs.list()
  const files: Record<string, string> = {}
  await inParallel(await localFiles(workDir), async (rel) => {
    // Stopped for a publish: the rest of this save is not needed (the generation upload sends the files).
    if (stopped()) return
    const hash = await blobs.save(rel)
    if (hash !== undefined) files[rel] = hash
  })
  return files
}

/** Writes the state over exactly the one read (`etag`), or as the first (none); returns the new ETag. */
function putWorkState(loc: RemoteLocation, state: WorkState, etag: string | undefined): Promise<string> {
  return loc
    .store()
    .put(stateKey(loc), JSON.stringify(state), etag === undefined ? { ifAbsent: true } : { ifMatch: etag })
}

/** A fresh saved state naming the files in path order (the same work saves the same file list). */
function newWorkState(origin: string | null, files: Record<string, string>): WorkState {
  return {
    origin,
    id: randomBytes(8).toString('hex'),
    saved: new Date().toISOString(),
    files: Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : 1))),
  }
}

/** The saved work's files, each stored once under the hash of its content (unchanged files are not sent again). */
class WorkBlobs {
  /** Blobs known to be in the store (listed once, then kept up to date). */
  private stored = new Set<string>()
  private listed = false
  private readonly seen = new Map<string, { size: number; mtimeMs: number; hash: string }>()
  private readonly uploads = new Map<string, Promise<void>>()

  constructor(
    private readonly loc: RemoteLocation,
    private readonly workDir: string,
  ) {}

  /** Reads which blobs the store holds, the first time only. */
  async list(): Promise<void> {
    if (this.listed) return
    const base = `${blobPrefix(this.loc)}/`
    this.stored = new Set((await this.loc.store().list(base)).map((o) => o.key.slice(base.length)))
    this.listed = true
  }

  /** The file's content hash, its blob uploaded if the store lacks it; undefined when the file vanished meanwhile. */
  async save(rel: string): Promise<string | undefined> {
    const path = join(this.workDir, rel)
    const s = await stat(path).catch(ignoreMissing)
    if (s === undefined) return undefined
    const known = this.seen.get(rel)
    if (known !== undefined && known.size === s.size && known.mtimeMs === s.mtimeMs && this.stored.has(known.hash))
      return known.hash
    // Hash and upload the same bytes: a file replaced meanwhile is seen again (new mtime) by the next save.
    const bytes = await readFile(path).catch(ignoreMissing)
    if (bytes === undefined) return undefined
    const hash = createHash('sha256').update(bytes).digest('hex')
    this.seen.set(rel, { size: bytes.length, mtimeMs: s.mtimeMs, hash })
    if (!this.stored.has(hash)) await this.upload(hash, bytes)
    return hash
  }

  /** One upload per blob, however many files of the save share its content. */
  private async upload(hash: string, bytes: Uint8Array): Promise<void> {
    let upload = this.uploads.get(hash)
    if (upload === undefined) {
      upload = this.loc
        .store()
        .put(joinKey(blobPrefix(this.loc), hash), bytes)
        .then(() => {
          this.stored.add(hash)
        })
        .finally(() => this.uploads.delete(hash))
      this.uploads.set(hash, upload)
    }
    await upload
  }

  /** Deletes the blobs the saved state no longer uses. */
  async prune(used: ReadonlySet<string>): Promise<void> {
    await inParallel(
      [...this.stored].filter((h) => !used.has(h)),
      async (h) => {
        await this.loc.store().delete(joinKey(blobPrefix(this.loc), h))
        this.stored.delete(h)
      },
    )
  }
}

function ignoreMissing(error: unknown): undefined {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
  throw error
}
