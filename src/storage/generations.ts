/**
 * Index generations. A run builds its tables in a work folder beside `output/` and the result
 * replaces `output/` only when the whole run succeeded, so queries always read a complete index.
 *
 * Why renames rather than a symlink: `output/` stays a plain folder, which is what Microsoft
 * GraphRAG, `cp -r`, zip, Docker bind mounts and Windows expect. Publishing is two renames
 * (output → previous, work → output) guarded by a journal file written first: a crash between
 * them leaves `output/` absent for a moment, and the next run (or a query) finishes the step
 * from the journal. Layout, for output_storage.base_dir = <dir>/output:
 *
 *   <dir>/.output.run/work/        the generation being built (kept after a crash: resume reads it)
 *   <dir>/.output.run/previous/    the generation just replaced (removed once the publish is done)
 *   <dir>/.output.run/publishing   the journal: present while work is being swapped in
 *   <dir>/.output.run/lock         held by the running index/update (run-lock.ts)
 *
 * The work folder starts as hard links of `output/` (every writer replaces files by rename, so a
 * link never lets a new write reach the published generation); log files are copied instead,
 * since the logger appends to them.
 */
import { copyFile, link, mkdir, readdir, readlink, rename, rm, stat, symlink } from 'node:fs/promises'
import { basename, dirname, isAbsolute, join, relative } from 'node:path'
import { writeFileAtomic } from './atomic-write.js'
import { exists, readdirOrEmpty, readMarker } from './fs-errors.js'
import { remoteAt } from './object/remote.js'

export interface GenerationPaths {
  /** The published index (output_storage.base_dir). */
  output: string
  /** Folder beside it holding the work generation, the journal and the lock. */
  runDir: string
  work: string
  previous: string
  journal: string
}

export function generationPaths(outputDir: string): GenerationPaths {
  const runDir = join(dirname(outputDir), `.${basename(outputDir)}.run`)
  return {
    output: outputDir,
    runDir,
    work: join(runDir, 'work'),
    previous: join(runDir, 'previous'),
    journal: join(runDir, 'publishing'),
  }
}

/**
 * Brings the folders to a consistent state after a crash; call it holding the lock. A journal
 * means the work folder was complete when the crash came, so the publish is finished (rolled
 * forward); a half-made seed copy and a leftover previous generation are removed.
 */
export async function recoverGenerations(paths: GenerationPaths): Promise<{ rolledForward: boolean }> {
  let rolledForward = false
  if (await exists(paths.journal)) {
    await finishPublish(paths)
    rolledForward = true
  }
  await rm(paths.previous, { recursive: true, force: true })
  for (const entry of await readdirOrEmpty(paths.runDir)) {
    // Half-made work folders: a seed copy, or a restore of work saved in object storage (object/work-state.ts).
    if (entry.startsWith('work.seeding-') || entry.startsWith('work.restoring-'))
      await rm(join(paths.runDir, entry), { recursive: true, force: true })
  }
  return { rolledForward }
}

/**
 * The folder this run writes to: the work generation a failed or killed run left (resume goes
 * on from it), or a new one seeded with the published index.
 */
export async function openWorkGeneration(paths: GenerationPaths): Promise<{ dir: string; resumed: boolean }> {
  // A published index replaced or deleted by hand since the work began is a fresh start, as it was before generations.
  if (await workBeganFromPublished(paths)) return { dir: paths.work, resumed: true }
  await rm(paths.work, { recursive: true, force: true })
  await mkdir(paths.runDir, { recursive: true })
  const seeding = join(paths.runDir, `work.seeding-${process.pid}`)
  await rm(seeding, { recursive: true, force: true })
  await recordWorkOrigin(paths)
  if (await exists(paths.output)) await linkTree(paths.output, seeding)
  else await mkdir(seeding, { recursive: true })
  await rename(seeding, paths.work)
  return { dir: paths.work, resumed: false }
}

/** The file naming the published index (by identity) the work folder began from. */
const workOriginFile = (paths: GenerationPaths): string => join(paths.runDir, 'work-origin')

/** Whether the work folder began from the published index as it is now (it is what the next run resumes from). */
export async function workBeganFromPublished(paths: GenerationPaths): Promise<boolean> {
  return (await exists(paths.work)) && (await readMarker(workOriginFile(paths))) === (await identity(paths.output))
}

/**
 * Records that the work folder begins from the published index as it is now: for a new work
 * folder, and for one brought in from elsewhere (an unfinished run's work saved in object
 * storage, restored on another machine).
 */
export async function recordWorkOrigin(paths: GenerationPaths): Promise<void> {
  await writeFileAtomic(workOriginFile(paths), await identity(paths.output))
}

/**
 * Makes the work generation the published one: journal, two renames, journal removed, old generation
 * deleted. `betweenRenames` runs while output/ is absent (drills widen that moment to test readers).
 */
export async function publishGeneration(
  paths: GenerationPaths,
  betweenRenames: () => Promise<void> = async () => {},
): Promise<void> {
  await writeFileAtomic(paths.journal, `${JSON.stringify({ work: paths.work, output: paths.output })}\n`)
  await finishPublish(paths, betweenRenames)
}

/** Drops the work generation (a run that decided there is nothing to publish). */
export async function discardWorkGeneration(paths: GenerationPaths): Promise<void> {
  await rm(paths.work, { recursive: true, force: true })
}

/** Idempotent: each step checks what is already done, so it can be repeated after a crash at any point. */
async function finishPublish(paths: GenerationPaths, betweenRenames?: () => Promise<void>): Promise<void> {
  if (await exists(paths.work)) {
    if (await exists(paths.output)) {
      await rm(paths.previous, { recursive: true, force: true })
      await rename(paths.output, paths.previous)
      await betweenRenames?.()
    }
    await rename(paths.work, paths.output)
  }
  await rm(paths.journal, { force: true })
  await rm(paths.previous, { recursive: true, force: true })
}

/**
 * The folder a reader should open for `outputDir`: itself, or, while a publish interrupted by a
 * crash has not been finished yet (output absent, journal present), the complete generation
 * waiting in the run folder. Read-only: the next run finishes the publish.
 */
export async function readableIndexDir(outputDir: string): Promise<string> {
  return (await readableIndex(outputDir, undefined)).dataDir
}

/** readableIndexDir, with a vector store inside the output folder following it. */
export async function readableIndex(
  outputDir: string,
  dbUri: string | undefined,
): Promise<{ dataDir: string; dbUri: string | undefined }> {
  // An index in object storage: a local copy of its published generation (storage/object/generations.ts).
  // Its machinery is imported only then: a local query does not load it.
  const remote =
    remoteAt(outputDir) === undefined
      ? undefined
      : await (await import('./object/remote-index.js')).readableRemoteIndex(outputDir)
  const dataDir = remote ?? (await readableDir(outputDir))
  return { dataDir, dbUri: await vectorsFollowing(outputDir, dataDir, dbUri) }
}

/**
 * The vector store a reader of `dataDir` (the generation it reads in place of `outputDir`) opens:
 * one inside the output folder follows the generation; an az:// or s3:// one is the folder of
 * vectors the generation names (object/vector-generations.ts); any other stays as configured.
 */
export async function vectorsFollowing(
  outputDir: string,
  dataDir: string,
  dbUri: string | undefined,
): Promise<string | undefined> {
  if (dbUri !== undefined && /^(az|s3):\/\//.test(dbUri)) {
    const { vectorsOf } = await import('./object/vector-generations.js')
    return (await vectorsOf(dataDir)) ?? dbUri
  }
  const rel = dbUri === undefined ? undefined : relative(outputDir, dbUri)
  const inside = rel !== undefined && !rel.startsWith('..') && !isAbsolute(rel)
  return inside && dataDir !== outputDir ? join(dataDir, rel) : dbUri
}

/** The identity of a folder now, to notice a publish that replaced it while it was being read. */
export async function folderIdentity(dir: string): Promise<string> {
  return identity(dir)
}

/** The local folder holding the readable generation of `outputDir` (itself, or one a crashed publish left beside it). */
export async function readableDir(outputDir: string): Promise<string> {
  if (await exists(outputDir)) return outputDir
  const paths = generationPaths(outputDir)
  if (!(await exists(paths.journal))) return outputDir
  if (await exists(paths.work)) return paths.work
  if (await exists(paths.previous)) return paths.previous
  return outputDir
}

/**
 * A copy of an index folder that costs no space: hard links, safe for the same reason as the work
 * generation's (update's backup of the previous index uses it). An existing target is replaced.
 */
export async function copyIndexTree(from: string, to: string): Promise<void> {
  await rm(to, { recursive: true, force: true })
  await linkTree(from, to)
}

/** Copies a folder as hard links (log files as copies; plain copies where linking is refused). */
async function linkTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true })
  for (const entry of await readdir(from, { withFileTypes: true })) {
    if (entry.name === '.staging') continue
    const source = join(from, entry.name)
    const target = join(to, entry.name)
    if (entry.isDirectory()) await linkTree(source, target)
    else if (entry.isSymbolicLink()) await symlink(await readlink(source), target)
    else if (entry.name.endsWith('.log')) await copyFile(source, target)
    else await linkOrCopy(source, target)
  }
}

async function linkOrCopy(source: string, target: string): Promise<void> {
  try {
    await link(source, target)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // Filesystems without hard links (some network and FAT mounts) get a copy.
    if (code !== 'EPERM' && code !== 'EXDEV' && code !== 'ENOTSUP' && code !== 'EMLINK') throw error
    await copyFile(source, target)
  }
}

/** Which published folder a work generation was seeded from (device and inode survive the renames of a publish). */
async function identity(path: string): Promise<string> {
  try {
    const s = await stat(path)
    return `${s.dev}:${s.ino}`
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 'none'
    throw error
  }
}
