/**
 * Copying between a local folder and a key prefix: whole files, several at a time, each download
 * written to a temporary name and renamed (a killed pull never leaves a half file under the real name).
 */
import { mkdir, readdir, readFile, rm, stat } from 'node:fs/promises'
import { dirname, join, relative, sep } from 'node:path'
import { writeFileAtomic } from '../atomic-write.js'
import { mapBounded } from '../bounded-map.js'
import { parseJson } from '../fs-errors.js'
import { joinKey, type ObjectStore } from './object-store.js'

/** Requests in flight per copy: enough to hide the round trip, few enough for a laptop link. */
const PARALLEL = 8

/** `work` on every item, PARALLEL at a time. */
export async function inParallel<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  await mapBounded(items, PARALLEL, work)
}

/** Relative paths (with `/`) of the files under `dir`, skipping temporaries, staging and hidden run state. */
export async function localFiles(dir: string, skip: (rel: string) => boolean = () => false): Promise<string[]> {
  const out: string[] = []
  const walk = async (at: string): Promise<void> => {
    let entries: import('node:fs').Dirent[]
    try {
      entries = await readdir(at, { withFileTypes: true })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
      throw error
    }
    for (const entry of entries) {
      const abs = join(at, entry.name)
      const rel = relative(dir, abs).split(sep).join('/')
      if (entry.name.endsWith('.tmp') || entry.name === '.staging' || skip(rel)) continue
      if (entry.isDirectory()) await walk(abs)
      else if (entry.isFile()) out.push(rel)
    }
  }
  await walk(dir)
  return out.sort()
}

/** Uploads the files of `dir` (relative paths `files`) under `prefix`. */
export async function uploadFiles(
  store: ObjectStore,
  dir: string,
  files: readonly string[],
  prefix: string,
): Promise<void> {
  await inParallel(files, async (rel) => {
    await store.put(joinKey(prefix, rel), await readFile(join(dir, rel)))
  })
}

/** Downloads `keys` (relative to `prefix`) into `dir`; a key that vanished meanwhile is an error. */
export async function downloadFiles(
  store: ObjectStore,
  prefix: string,
  rels: readonly string[],
  dir: string,
): Promise<void> {
  await mkdir(dir, { recursive: true })
  await inParallel(rels, async (rel) => {
    const object = await store.get(joinKey(prefix, rel))
    if (object === undefined)
      throw new Error(`${store.location}/${joinKey(prefix, rel)} disappeared while it was being copied`)
    await mkdir(dirname(join(dir, rel)), { recursive: true })
    await writeFileAtomic(join(dir, rel), object.body)
  })
}

/**
 * Makes `dir` hold exactly the objects under `prefix` (input documents): downloads what is new or
 * changed, deletes local files the store no longer has. The ETag of each copied object is kept
 * beside the folder (`<dir>.etags.json`), so an unchanged object is not fetched again.
 */
export async function mirrorPrefix(store: ObjectStore, prefix: string, dir: string): Promise<void> {
  const base = prefix === '' ? '' : `${prefix}/`
  const remote = (await store.list(base)).map((o) => ({ rel: o.key.slice(base.length), etag: o.etag }))
  const stateFile = `${dir}.etags.json`
  const known = parseJson<Record<string, string>>(await readFile(stateFile, 'utf8').catch(() => '{}')) ?? {}
  const stale: string[] = []
  for (const o of remote) {
    const present = await stat(join(dir, o.rel)).then(
      () => true,
      () => false,
    )
    if (!present || known[o.rel] !== o.etag) stale.push(o.rel)
  }
  await downloadFiles(store, prefix, stale, dir)
  const wanted = new Set(remote.map((o) => o.rel))
  for (const rel of await localFiles(dir)) if (!wanted.has(rel)) await rm(join(dir, rel), { force: true })
  await writeFileAtomic(stateFile, JSON.stringify(Object.fromEntries(remote.map((o) => [o.rel, o.etag]))))
}
