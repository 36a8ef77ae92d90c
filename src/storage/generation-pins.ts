/**
 * A query reads one generation from its first table to its last vector. A local index is published
 * by renaming the work folder over `output/` (generations.ts), so a reader that opens files by their
 * path under `output/` could see the folder absent between the two renames, or the next generation's
 * files after them. A pinned reader reads a snapshot instead: hard links of the generation's files
 * (tables and the LanceDB folder inside it) made under `<dir>/.output.run/readers/`, which no publish
 * touches. Writers only ever replace files by rename, so a link keeps the generation's content as it
 * was for as long as the reader holds it; the space of an old generation is freed when its last
 * reader lets go.
 *
 * Readers in one process share the snapshot of a generation (serve answers many queries a second;
 * the links are made once per generation). A folder where links cannot be made (a read-only mount)
 * is read in place, as before.
 */
import { rmSync } from 'node:fs'
import { readdir, rm, stat } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { isAlive } from './run-lock.js'
import { exists } from './fs-errors.js'
import { copyIndexTree, generationPaths, readableDir, readableIndex, vectorsFollowing } from './generations.js'
import { remoteAt } from './object/remote.js'

export interface PinnedIndex {
  /** The folder holding the pinned generation's tables. */
  dataDir: string
  /** Its vector store (inside the snapshot when the store is inside the output folder). */
  dbUri: string | undefined
  /** Lets go of the generation; call it once, when the query is over. */
  release(): Promise<void>
}

interface Snapshot {
  outputDir: string
  identity: string
  dir: string
  readers: number
  made: Promise<void>
}

/** Snapshots made by this process, by output folder and generation identity. */
const snapshots = new Map<string, Snapshot>()
/** How many times a snapshot is retried when a publish replaced the folder while it was being linked. */
const ATTEMPTS = 5
/** Errors that say links cannot be made here (a read-only mount, a folder of someone else's): read in place. */
const CANNOT_LINK = new Set(['EACCES', 'EPERM', 'EROFS'])
let sequence = 0
let cleanupRegistered = false

/** The readable generation of `outputDir`, held until `release()`: see the module comment. */
export async function pinReadableIndex(outputDir: string, dbUri: string | undefined): Promise<PinnedIndex> {
  // Object storage readers already read an immutable pulled copy of one generation (object/remote-index.ts).
  if (remoteAt(outputDir) !== undefined) return { ...(await readableIndex(outputDir, dbUri)), release: async () => {} }
  // Only a folder our runs publish to changes under a reader; one they never wrote (an index of
  // Microsoft GraphRAG, a copy, read-only reference data) is read in place and nothing is written beside it.
  if (!(await exists(generationPaths(outputDir).runDir)))
    return unpinned(outputDir, await readableDir(outputDir), dbUri)
  for (let attempt = 1; ; attempt++) {
    const source = await readableDir(outputDir)
    const identity = await generationKey(source)
    if (identity === 'none') {
      // No index yet: nothing to pin, the reader says so as before; unless a publish moved it meanwhile.
      const again = await readableDir(outputDir)
      if (attempt === ATTEMPTS || (again === source && (await generationKey(again)) === 'none'))
        return unpinned(outputDir, again, dbUri)
      continue
    }
    const snapshot = await snapshotOf(outputDir, source, identity, attempt === ATTEMPTS)
    if (snapshot === 'in place') return unpinned(outputDir, source, dbUri)
    if (snapshot === 'replaced') continue
    const vectors = await vectorsFollowing(outputDir, snapshot.dir, dbUri)
    return { dataDir: snapshot.dir, dbUri: vectors, release: releaser(snapshot) }
  }
}

async function unpinned(outputDir: string, dataDir: string, dbUri: string | undefined): Promise<PinnedIndex> {
  return { dataDir, dbUri: await vectorsFollowing(outputDir, dataDir, dbUri), release: async () => {} }
}

/** The shared snapshot of the generation at `source`, made if needed; 'replaced' when a publish moved it meanwhile. */
async function snapshotOf(
  outputDir: string,
  source: string,
  identity: string,
  lastAttempt: boolean,
): Promise<Snapshot | 'replaced' | 'in place'> {
  const key = `${outputDir}\u0000${identity}`
  let snapshot = snapshots.get(key)
  if (snapshot === undefined) {
    const dir = join(generationPaths(outputDir).runDir, 'readers', `${hostname()}.${process.pid}.${++sequence}`)
    snapshot = { outputDir, identity, dir, readers: 0, made: linkGeneration(outputDir, source, identity, dir) }
    snapshots.set(key, snapshot)
    registerCleanup()
  }
  snapshot.readers += 1
  try {
    await snapshot.made
    return snapshot
  } catch (error) {
    snapshot.readers -= 1
    if (snapshots.get(key) === snapshot) snapshots.delete(key)
    await rm(snapshot.dir, { recursive: true, force: true })
    const code = (error as NodeJS.ErrnoException).code
    if (code !== undefined && CANNOT_LINK.has(code)) return 'in place'
    if (error instanceof GenerationReplaced || code === 'ENOENT') {
      if (!lastAttempt) return 'replaced'
    }
    throw error
  }
}

class GenerationReplaced extends Error {}

/**
 * Links the generation's files into `dir`; fails with GenerationReplaced when `source` is no longer
 * the readable generation afterwards: a publish during the walk may have handed us files of the next
 * generation, or `source` was the previous generation a publish was deleting.
 */
async function linkGeneration(outputDir: string, source: string, identity: string, dir: string): Promise<void> {
  await copyIndexTree(source, dir)
  const now = await readableDir(outputDir)
  if (now !== source || (await generationKey(now)) !== identity)
    throw new GenerationReplaced(`${source} was replaced while being read`)
}

/**
 * Which generation a folder holds: device and inode, and its change time, since a new folder may
 * reuse the inode of a generation just deleted (a rename changes it too: a snapshot of the work
 * folder taken during a publish is not reused for output/, which costs a second snapshot, no more).
 */
async function generationKey(dir: string): Promise<string> {
  try {
    const s = await stat(dir)
    return `${s.dev}:${s.ino}:${s.ctimeMs}`
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none'
    throw error
  }
}

function releaser(snapshot: Snapshot): () => Promise<void> {
  let released = false
  return async () => {
    if (released) return
    released = true
    snapshot.readers -= 1
    await dropUnread(snapshot.outputDir)
  }
}

/** Removes this process's snapshots that no reader holds and that are no longer the published generation. */
async function dropUnread(outputDir: string): Promise<void> {
  const current = await generationKey(await readableDir(outputDir))
  for (const [key, snapshot] of snapshots) {
    if (snapshot.outputDir !== outputDir || snapshot.readers > 0 || snapshot.identity === current) continue
    snapshots.delete(key)
    await rm(snapshot.dir, { recursive: true, force: true })
  }
}

/** The snapshots still kept for reuse go when the process exits (a killed process's are removed by the next run). */
function registerCleanup(): void {
  if (cleanupRegistered) return
  cleanupRegistered = true
  process.once('exit', () => {
    for (const snapshot of snapshots.values()) rmSync(snapshot.dir, { recursive: true, force: true })
  })
}

/**
 * Removes the snapshots of readers on this host that are no longer running (a query killed before
 * it let go). Called by a run holding the lock; other hosts' readers are left alone.
 */
export async function removeDeadReaders(outputDir: string): Promise<void> {
  const readersDir = join(generationPaths(outputDir).runDir, 'readers')
  let entries: string[]
  try {
    entries = await readdir(readersDir)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  for (const entry of entries) {
    const match = /^(.+)\.(\d+)\.\d+$/.exec(entry)
    if (match === null || match[1] !== hostname()) continue
    const holder = { pid: Number(match[2]), host: match[1], command: '', started: '' }
    if (!isAlive(holder)) await rm(join(readersDir, entry), { recursive: true, force: true })
  }
}
