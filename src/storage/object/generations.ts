/**
 * Index generations on object storage. Objects cannot be renamed, so each run uploads its tables
 * under a new, never rewritten prefix and then switches one small pointer object, written last
 * with a conditional write. Layout under output_storage.base_dir (<base>):
 *
 *   <base>/.generations/current.json        the pointer: {"generation": id, "previous": id, ...}
 *   <base>/.generations/<id>/...            one complete index (tables, lancedb/, stats.json, ...)
 *   <base>/.generations/<id>/.manifest.json every file of the generation, uploaded after them
 *   <base>/.generations/lock                the run lock (object-lock.ts)
 *
 * A reader reads the pointer once and then only that generation, so it never mixes two runs; a
 * killed run leaves the pointer on the last complete generation. The pointer's previous
 * generation is kept (a reader that resolved it a moment ago can finish), older ones are deleted.
 */
import { randomBytes } from 'node:crypto'
import { readdir, rename, rm, stat } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { StorageError } from '../../errors.js'
import { writeFileAtomic } from '../atomic-write.js'
import { exists, parseJson, unlessAbsent } from '../fs-errors.js'
import { downloadFiles, inParallel, localFiles, uploadFiles } from './folder-sync.js'
import { ConditionFailedError, joinKey } from './object-store.js'
import type { RemoteLocation } from './remote.js'

export interface Pointer {
  generation: string
  previous: string | null
  published: string
}

interface Manifest {
  generation: string
  files: { path: string; size: number }[]
}

const DIR = '.generations'
const MANIFEST = '.manifest.json'

export const lockKey = (loc: RemoteLocation): string => joinKey(loc.prefix, DIR, 'lock')
const pointerKey = (loc: RemoteLocation): string => joinKey(loc.prefix, DIR, 'current.json')
const generationPrefix = (loc: RemoteLocation, id: string): string => joinKey(loc.prefix, DIR, id)

/** Sortable by time, unique across machines. */
export function newGenerationId(now = new Date()): string {
  return `${now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}-${randomBytes(4).toString('hex')}`
}

export async function readPointer(loc: RemoteLocation): Promise<{ pointer: Pointer; etag: string } | undefined> {
  const object = await loc.store().get(pointerKey(loc))
  if (object === undefined) return undefined
  const pointer = parseJson<Pointer>(new TextDecoder().decode(object.body))
  if (pointer === undefined || typeof pointer.generation !== 'string')
    throw new StorageError(
      `${loc.url}/${DIR}/current.json is not a generation pointer; restore it or delete it to start over`,
    )
  return { pointer, etag: object.etag }
}

/** Uploads a finished index folder as generation `id`: every file, then the manifest naming them. */
export async function uploadGeneration(
  loc: RemoteLocation,
  id: string,
  dir: string,
  last?: { file: string; prepare: () => Promise<void> },
): Promise<void> {
  const files = await localFiles(dir, (rel) => rel === MANIFEST)
  // `last.file` goes after the others, written by `prepare` once they are up (stats.json counts their resends).
  const held = last !== undefined && files.includes(last.file) ? last : undefined
  await uploadFiles(
    loc.store(),
    dir,
    files.filter((f) => f !== held?.file),
    generationPrefix(loc, id),
  )
  if (held !== undefined) {
    await held.prepare()
    await uploadFiles(loc.store(), dir, [held.file], generationPrefix(loc, id))
  }
  const sizes = await Promise.all(files.map(async (path) => ({ path, size: (await stat(join(dir, path))).size })))
  const manifest: Manifest = { generation: id, files: sizes }
  await loc.store().put(joinKey(generationPrefix(loc, id), MANIFEST), JSON.stringify(manifest))
}

/**
 * Makes generation `id` the published one. `expected` is the pointer's ETag when the run began
 * (undefined: there was none), so a pointer moved by anyone else meanwhile fails the write.
 */
export async function publishPointer(
  loc: RemoteLocation,
  id: string,
  previous: string | null,
  expected: string | undefined,
): Promise<void> {
  const pointer: Pointer = { generation: id, previous, published: new Date().toISOString() }
  try {
    await loc
      .store()
      .put(
        pointerKey(loc),
        `${JSON.stringify(pointer, null, 2)}\n`,
        expected === undefined ? { ifAbsent: true } : { ifMatch: expected },
      )
  } catch (error) {
    if (error instanceof ConditionFailedError)
      throw new StorageError(
        `${loc.url}: another run published the index while this one ran (the lock was taken over?); this run's generation ${id} was not published`,
        { cause: error },
      )
    throw error
  }
}

/** Deletes every generation but `keep` (the new one, the previous one, an unfinished one). */
export async function collectGenerations(loc: RemoteLocation, keep: readonly (string | null)[]): Promise<number> {
  const base = `${joinKey(loc.prefix, DIR)}/`
  const kept = new Set(keep.filter((k): k is string => k !== null))
  const doomed = (await loc.store().list(base)).filter((o) => {
    const rest = o.key.slice(base.length)
    const at = rest.indexOf('/')
    return at > 0 && !kept.has(rest.slice(0, at))
  })
  await inParallel(doomed, (o) => loc.store().delete(o.key))
  return doomed.length
}

/**
 * Downloads generation `id` into `dir` unless it is there already: into a temporary sibling, then
 * renamed, so a folder named after a generation is always complete.
 */
export async function pullGeneration(loc: RemoteLocation, id: string, dir: string): Promise<void> {
  if (await exists(join(dir, MANIFEST))) return
  const prefix = generationPrefix(loc, id)
  const object = await loc.store().get(joinKey(prefix, MANIFEST))
  const manifest = object === undefined ? undefined : parseJson<Manifest>(new TextDecoder().decode(object.body))
  if (manifest === undefined)
    throw new StorageError(
      `${loc.url}: generation ${id} named by the pointer has no manifest (deleted by hand?); run \`graphrag index\` again`,
    )
  const partial = join(dirname(dir), `.${basename(dir)}.${process.pid}.${randomBytes(3).toString('hex')}.partial`)
  try {
    await downloadFiles(
      loc.store(),
      prefix,
      manifest.files.map((f) => f.path),
      partial,
    )
    await writeFileAtomic(join(partial, MANIFEST), JSON.stringify(manifest))
    try {
      await rename(partial, dir)
    } catch (error) {
      // Another process pulled the same generation first: theirs is as good as ours.
      if (!(await exists(join(dir, MANIFEST)))) throw error
    }
  } finally {
    await rm(partial, { recursive: true, force: true })
  }
}

/** Where the generations a mirror pulled live: `<mirror>.pulled/<id>` (immutable once complete). */
export function pulledDir(mirror: string, id: string): string {
  return join(`${mirror}.pulled`, id)
}

/** Removes pulled generations other than `keep` (the current and previous one stay for readers mid-query). */
export async function prunePulled(mirror: string, keep: readonly (string | null)[]): Promise<void> {
  const root = `${mirror}.pulled`
  const kept = new Set(keep)
  const entries = await unlessAbsent(root, 'list', () => readdir(root), [] as string[])
  for (const entry of entries)
    if (!kept.has(entry) && !entry.startsWith('.')) await rm(join(root, entry), { recursive: true, force: true })
}
