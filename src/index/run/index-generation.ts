/**
 * A run's hold on the index: the lock, crash recovery, the work generation it writes to and the
 * publish that makes it visible (see storage/generations.ts for the layout and why).
 */
import { join, relative, isAbsolute } from 'node:path'
import type { Settings } from '../../config/schema.js'
import { ConfigError } from '../../errors.js'
import {
  discardWorkGeneration,
  generationPaths,
  openWorkGeneration,
  publishGeneration,
  recordWorkOrigin,
  recoverGenerations,
  workBeganFromPublished,
  type GenerationPaths,
} from '../../storage/generations.js'
import { exists } from '../../storage/fs-errors.js'
import { removeDeadReaders } from '../../storage/generation-pins.js'
import { beginRemoteRun, type RemoteRun } from '../../storage/object/remote-index.js'
import { remoteName } from '../../storage/object/remote.js'
import {
  collectVectorGenerations,
  isObjectStoreUri,
  vectorGenerationFor,
  vectorsOf,
} from '../../storage/object/vector-generations.js'
import { acquireRunLock, lockPathFor, type RunLock } from '../../storage/run-lock.js'
import { type StoreRetryWatch, watchStoreRetries } from './store-retries.js'

export interface IndexGeneration {
  readonly paths: GenerationPaths
  /** The settings with every path inside output/ moved into the work generation. */
  readonly settings: Settings
  /** True when the work generation was left by an earlier run that did not finish. */
  readonly resumed: boolean
  /** Notices for the console: a stale lock taken over, a crashed publish finished. */
  readonly notices: string[]
  /**
   * `settings` with an az:// or s3:// vector store pointed at this run's own folder of vectors
   * (storage/object/vector-generations.ts), given whether the run embeds; others as they are.
   */
  withVectors(settings: Settings, embeds: boolean): Promise<Settings>
  /** Makes the work generation the published index; returns where it is, for messages (a folder, or `az://…/.generations/<id>`). */
  publish(): Promise<string>
  /** A workflow finished: on object storage, the work so far is saved in the store (resume on any machine). */
  checkpoint(): void
  /** Leaves output/ as it is and removes the work generation. */
  discard(): Promise<void>
  /** Releases the lock (and on object storage saves unpublished work, uploads logs); returns warnings for the console. */
  release(): Promise<string[]>
  /** The store's resends during this run (object storage), for the log and the progress line. */
  readonly storeRetries: StoreRetryWatch
}

/** Takes the lock, finishes what a crash left half done, and opens the work generation. */
export async function beginGeneration(
  settings: Settings,
  command: string,
  options: { resume?: boolean } = {},
): Promise<IndexGeneration> {
  rejectSharedOutputFolder(settings)
  const paths = generationPaths(settings.output_storage.base_dir)
  const storeRetries = watchStoreRetries()
  // Object storage: the store's lock first, then the mirror folder is brought to the published generation.
  const remote = await beginRemoteRun(
    {
      output: paths.output,
      reporting: settings.reporting.base_dir,
      updateOutput: settings.update_output_storage.base_dir,
      cache: settings.cache.type === 'json' ? settings.cache.storage.base_dir : undefined,
    },
    command,
  ).catch((error: unknown) => {
    storeRetries.stop()
    throw error
  })
  let lock: RunLock | undefined
  try {
    lock = await acquireRunLock(lockPathFor(paths.runDir), command)
    const notices = takeoverNotices(remote, lock)
    if ((await recoverGenerations(paths)).rolledForward)
      notices.push(`finished publishing the index an interrupted run had completed (${remoteName(paths.output)})`)
    await removeDeadReaders(paths.output)
    // Object storage: an unfinished run's work saved in the store (by a run on any machine) becomes the local
    // work folder, unless the run starts afresh (--no-resume).
    const restore = options.resume !== false
    if (remote !== undefined && (await remote.openWork(paths.work, await workBeganFromPublished(paths), restore))) {
      await recordWorkOrigin(paths)
      notices.push(`resuming the unfinished run saved in ${remote.workUrl}`)
    }
    const work = await openWorkGeneration(paths)
    const held = { lock, remote, storeRetries }
    return handle(paths, rebaseSettings(settings, paths.output, work.dir), work.resumed, notices, held)
  } catch (error) {
    storeRetries.stop()
    await lock?.release()
    await remote?.finish()
    throw error
  }
}

/**
 * One notice per lock taken over, saying which lock (the store's, or the local folder's or mirror's)
 * and why its holder was judged gone. The mirror's path is not named: messages name store locations.
 */
function takeoverNotices(remote: RemoteRun | undefined, local: RunLock): string[] {
  const notices: string[] = []
  const which = [
    [remote?.lock, `the store lock ${remote?.lock.path}`],
    [local, remote === undefined ? `the lock ${local.path}` : "the local mirror's lock on this machine"],
  ] as const
  for (const [taken, name] of which) {
    const dead = taken?.tookOverFrom
    if (dead === undefined) continue
    notices.push(
      `took over ${name} from PID ${dead.pid} on host ${dead.host} (\`${dead.command}\`, started ${dead.started}), which ${taken?.tookOverBecause ?? 'is no longer running'}`,
    )
  }
  return notices
}

function handle(
  paths: GenerationPaths,
  settings: Settings,
  resumed: boolean,
  notices: string[],
  { lock, remote, storeRetries }: { lock: RunLock; remote: RemoteRun | undefined; storeRetries: StoreRetryWatch },
): IndexGeneration {
  const dbUri = settings.vector_store.db_uri
  return {
    paths,
    settings,
    resumed,
    notices,
    storeRetries,
    async withVectors(runSettings, embeds) {
      if (!isObjectStoreUri(dbUri)) return runSettings
      const folder = await vectorGenerationFor({ work: paths.work, published: paths.output }, dbUri, {
        resumed,
        embeds,
      })
      return { ...runSettings, vector_store: { ...runSettings.vector_store, db_uri: folder } }
    },
    publish: async () => {
      if (remote === undefined) {
        await publishGeneration(paths)
        return paths.output
      }
      const replaced = await vectorsOf(paths.output)
      const published = await remote.publish(paths.work, () => publishGeneration(paths))
      if (isObjectStoreUri(dbUri))
        await collectVectorGenerations(dbUri, settings.output_storage, [await vectorsOf(paths.output), replaced])
      return published
    },
    checkpoint: () => remote?.checkpoint(),
    discard: () => discardWorkGeneration(paths),
    async release() {
      let warnings: string[] = []
      try {
        await lock.release()
      } finally {
        try {
          warnings = (await remote?.finish()) ?? []
        } finally {
          storeRetries.stop()
        }
      }
      return warnings
    },
  }
}

/**
 * Publishing replaces the whole output folder and deletes the one it replaced, so that folder must
 * hold nothing but the index: not the project root, nor a folder holding the inputs or settings.
 */
function rejectSharedOutputFolder(settings: Settings): void {
  const out = settings.output_storage.base_dir
  const holds = (path: string | null | undefined): boolean => path !== null && path !== undefined && inside(path, out)
  if (holds(settings.root) || holds(settings.input_storage.base_dir) || holds(settings.configFile)) {
    throw new ConfigError(
      `output_storage.base_dir: ${out} also holds the project root, its inputs or its settings; a run replaces that folder as a whole when it finishes, so give the index a folder of its own (default: output)`,
      { keyPath: 'output_storage.base_dir' },
    )
  }
}

function inside(path: string, dir: string): boolean {
  const rel = relative(dir, path)
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
}

/**
 * Paths inside output/ (the default LanceDB folder, and cache or logs when configured there) follow
 * the work generation, so everything the run writes is published together. Paths outside stay:
 * a vector store elsewhere has its tables replaced (each one atomically) when the embedding
 * workflow runs, before the new tables are published.
 */
export function rebaseSettings(settings: Settings, outputDir: string, workDir: string): Settings {
  const move = (path: string): string => (inside(path, outputDir) ? join(workDir, relative(outputDir, path)) : path)
  return {
    ...settings,
    output_storage: { ...settings.output_storage, base_dir: workDir },
    vector_store: { ...settings.vector_store, db_uri: move(settings.vector_store.db_uri) },
    cache: {
      ...settings.cache,
      storage: { ...settings.cache.storage, base_dir: move(settings.cache.storage.base_dir) },
    },
    reporting: { ...settings.reporting, base_dir: move(settings.reporting.base_dir) },
  }
}

/** Where the next run resumes from: the unfinished work generation when there is one, else the published index. */
export async function resumeSourceDir(outputDir: string): Promise<string> {
  const { work } = generationPaths(outputDir)
  return (await exists(work)) ? work : outputDir
}
