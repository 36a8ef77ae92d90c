/**
 * One writer per index: `index` and `update` hold a lock file while they run, so a second run on
 * the same output fails at once naming the holder instead of racing it through the work folder.
 * A lock left by a holder that is gone is taken over with a notice: on this host when its process
 * no longer exists; from another host (a shared folder, or a CI job whose container got a new
 * hostname) when the holder stopped refreshing it — the holder touches the file every 30 s, and
 * a file untouched for GRAPHRAG_LOCK_STALE_SECONDS is stale, as the store lock's heartbeat is.
 */
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { link, mkdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { unlinkSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { ConfigError, GraphragError } from '../errors.js'

/** How often a holder refreshes its lock (the file's mtime here, the heartbeat field in the store). */
export const HEARTBEAT_MS = 30_000
/**
 * The shortest stale age accepted: two heartbeats. A holder's beat may come late (a slow store
 * write with its retries, a busy event loop) and another host compares the beat with its own
 * clock; with a stale age at or below one heartbeat, a second host takes a lock whose holder runs.
 */
const MIN_STALE_SECONDS = (2 * HEARTBEAT_MS) / 1000

/** GRAPHRAG_LOCK_STALE_SECONDS (default 120), refused below MIN_STALE_SECONDS or when not a number. */
export function staleAfterMs(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const text = env.GRAPHRAG_LOCK_STALE_SECONDS?.trim() ?? ''
  if (text === '') return 120_000
  const seconds = Number(text)
  if (!Number.isFinite(seconds) || seconds < MIN_STALE_SECONDS)
    throw new ConfigError(
      `GRAPHRAG_LOCK_STALE_SECONDS=${text}: a lock is taken over when unrefreshed for that long, and its holder refreshes it every ${HEARTBEAT_MS / 1000} s, so it must be a number of seconds ≥ ${MIN_STALE_SECONDS} (two refreshes); unset it for the default 120`,
    )
  return seconds * 1000
}

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
  /** Why that holder was judged gone, for the notice ("is no longer running", "has not refreshed it for 412 s"). */
  readonly tookOverBecause: string | undefined
  release(): Promise<void>
}

/** Why a holder that lost its lock was judged gone: its process (on this host) or its heartbeat's age. */
export function goneBecause(holder: LockHolder, ageMs: number): string {
  if (holder.host === hostname() && !isAlive(holder)) return 'is no longer running'
  if (!Number.isFinite(ageMs)) return 'left no readable heartbeat'
  return `has not refreshed it for ${Math.round(ageMs / 1000)} s`
}

/** Another live process holds the lock; exit code 1 like every other failure. */
export class RunLockedError extends GraphragError {
  constructor(
    readonly lockPath: string,
    readonly holder: LockHolder,
  ) {
    super(
      'STORAGE',
      `another graphrag run holds the lock on this index: PID ${holder.pid} on host ${holder.host} (\`${holder.command}\`, started ${holder.started}); ` +
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
  const staleMs = staleAfterMs()
  await mkdir(dirname(path), { recursive: true })
  const me: LockHolder = { pid: process.pid, host: hostname(), command, started: new Date().toISOString() }
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(tmp, `${JSON.stringify(me)}\n`)
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await link(tmp, path)
        return held(path, me)
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
      }
      const holder = await readHolder(path)
      if (holder === undefined) continue // released between our attempt and the read: try again
      const age = await ageOf(path)
      if (holds(holder, age, staleMs)) throw new RunLockedError(path, holder)
      if (await takeOver(path, tmp, holder)) return held(path, me, holder, goneBecause(holder, age))
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

/**
 * Whether the holder still holds the lock: on this host, while its process exists; a holder on
 * another host cannot be checked that way, so while it keeps refreshing the file. Not by the
 * hostname alone: in CI containers and pods it changes every run, and a killed job's lock would
 * block every later one.
 */
function holds(holder: LockHolder, ageMs: number, staleMs: number): boolean {
  if (holder.pid <= 0) return false
  return holder.host === hostname() ? isAlive(holder) : ageMs <= staleMs
}

/** Milliseconds since the lock file was last refreshed (0 when it vanished meanwhile: the next attempt sees that). */
async function ageOf(path: string): Promise<number> {
  try {
    return Date.now() - (await stat(path)).mtimeMs
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
    throw error
  }
}

/** A holder on another host cannot be checked here, so it counts as alive (its heartbeat decides). */
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

function held(path: string, me: LockHolder, tookOverFrom?: LockHolder, tookOverBecause?: string): RunLock {
  // A run that ends through process.exit (Ctrl-C) still leaves no lock behind.
  const onExit = (): void => releaseSync(path, me)
  process.on('exit', onExit)
  const beat = setInterval(() => {
    refresh(path, me).catch((error: unknown) => process.emitWarning(error as Error))
  }, HEARTBEAT_MS)
  beat.unref()
  return {
    path,
    tookOverFrom,
    tookOverBecause,
    async release() {
      clearInterval(beat)
      process.off('exit', onExit)
      releaseSync(path, me)
    },
  }
}

/** The heartbeat: touches the lock file while it is still ours, so a run on another host sees it alive. */
async function refresh(path: string, me: LockHolder): Promise<void> {
  try {
    if ((await readFile(path, 'utf8')) !== `${JSON.stringify(me)}\n`) return
    const now = new Date()
    await utimes(path, now, now)
  } catch (error) {
    // Gone (released or taken over meanwhile): nothing to refresh; release checks ownership itself.
    // A beat the file system refused (a network folder away for a moment) is tried again by the next
    // one; until then a run on another host sees an older lock, as after a late beat.
    if (typeof (error as NodeJS.ErrnoException).code !== 'string') throw error
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
