/**
 * One writer per index: `index` and `update` hold a lock file while they run, so a second run on
 * the same output fails at once naming the holder instead of racing it through the work folder.
 * A lock left by a process that no longer exists (kill -9, power loss) is taken over with a notice.
 */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { link, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises'
import { unlinkSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { GraphragError } from '../errors.js'

export interface LockHolder {
  pid: number
  host: string
  command: string
  started: string
}

export interface RunLock {
  readonly path: string
  /** The holder whose stale lock this one replaced, when it did. */
  readonly tookOverFrom: LockHolder | undefined
  release(): Promise<void>
}

/** Another live process holds the lock; exit code 1 like every other failure. */
export class RunLockedError extends GraphragError {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    super(
      'STORAGE',
      `another graphrag run holds the lock on this index: PID ${holder.pid} (\`${holder.command}\`, started ${holder.started}); ` +
        `wait for it to finish or stop it (lock file: ${lockPath})`,
    )
    this.name = 'RunLockedError'
  }
}

/**
 * Takes the lock at `path`. The lock file is written whole under a temporary name and linked into
 * place (link fails if the name exists), so a reader never sees a half-written holder.
 */
export async function acquireRunLock(path: string, command: string): Promise<RunLock> {
  await mkdir(dirname(path), { recursive: true })
  const me: LockHolder = { pid: process.pid, host: hostname(), command, started: new Date().toISOString() }
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(tmp, `${JSON.stringify(me)}\n`)
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(tmp, path)
        return held(path, me, undefined)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const holder = await readHolder(path)
      if (holder === undefined) continue // released between our attempt and the read: try again
      if (isAlive(holder)) throw new RunLockedError(path, holder)
      if (await takeOver(path, tmp, holder)) return held(path, me, holder)
    }
    throw new GraphragError('STORAGE', `could not take the lock ${path}: other runs keep taking it; try again`)
  } finally {
    await rm(tmp, { force: true })
  }
}

/** Reads who holds the lock; undefined when the file is gone. A file that does not parse counts as a dead holder. */
async function readHolder(path: string): Promise<LockHolder | undefined> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined
    throw error
  }
  try {
    const parsed = JSON.parse(text) as LockHolder
    if (typeof parsed.pid === 'number') return parsed
  } catch {
    // written by something else: nobody can be holding it the way we do
  }
  return { pid: 0, host: hostname(), command: 'unknown', started: 'unknown' }
}

/** A holder on another host cannot be checked, so it counts as alive (the lock is kept). */
export function isAlive(holder: LockHolder): boolean {
  if (holder.pid <= 0) return false
  if (holder.host !== hostname()) return true
  try {
    process.kill(holder.pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Replaces a dead holder's lock. A second lock file (`.takeover`, taken with link like the lock)
 * makes sure only one of several runs that found the same stale lock replaces it; a takeover lock
 * older than 30 s belongs to a run that died while taking over and is removed.
 */
async function takeOver(path: string, tmp: string, dead: LockHolder): Promise<boolean> {
  const guard = `${path}.takeover`
  try {
    await link(tmp, guard)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    const age = await stat(guard).then(
      (s) => Date.now() - s.mtimeMs,
      () => 0,
    )
    if (age > 30_000) await rm(guard, { force: true })
    return false
  }
  try {
    const now = await readHolder(path)
    if (now !== undefined && (now.pid !== dead.pid || now.started !== dead.started)) return false
    const copy = `${tmp}.takeover`
    await link(tmp, copy)
    await rename(copy, path)
    return true
  } finally {
    await rm(guard, { force: true })
  }
}

function held(path: string, me: LockHolder, tookOverFrom: LockHolder | undefined): RunLock {
  // A run that ends through process.exit (Ctrl-C) still leaves no lock behind.
  const onExit = (): void => releaseSync(path, me)
  process.on('exit', onExit)
  return {
    path,
    tookOverFrom,
    async release() {
      process.off('exit', onExit)
      releaseSync(path, me)
    },
  }
}

/** Removes the lock only while it is still ours (a takeover after a long pause may have replaced it). */
function releaseSync(path: string, me: LockHolder): void {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return
    throw error
  }
  if (text === `${JSON.stringify(me)}\n`) unlinkSync(path)
}

/** Where the lock of an output folder lives (inside its run folder, see generations.ts). */
export function lockPathFor(runDir: string): string {
  return join(runDir, 'lock')
}
