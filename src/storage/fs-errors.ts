/**
 * The one place a file system error may be read as "absent": ENOENT, and nothing else. Any other
 * failure (EACCES, ENOTDIR, EISDIR, EIO, ...) becomes a StorageError naming the path, so an
 * unreadable cache is not a silent cache miss and an unreadable input folder is not an empty one.
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { StorageError } from '../errors.js'
import { remoteName } from './object/remote.js'

export function isAbsent(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === 'ENOENT'
}

/** A StorageError for a failed file system `action` ("read", "list", ...) on `path`, keeping the cause. */
export function storageFailure(error: unknown, action: string, path: string): StorageError {
  const code = (error as NodeJS.ErrnoException | null)?.code
  const reason = code ?? (error instanceof Error ? error.message : String(error))
  return new StorageError(`cannot ${action} ${remoteName(path)}: ${reason}`, { path, cause: error })
}

/** Runs `operation`; `whenAbsent` when what it reads does not exist, a StorageError for every other failure. */
export async function unlessAbsent<T, A>(
  path: string,
  action: string,
  operation: () => Promise<T>,
  whenAbsent: A,
): Promise<T | A> {
  try {
    return await operation()
  } catch (error) {
    if (isAbsent(error)) return whenAbsent
    throw storageFailure(error, action, path)
  }
}

/** Whether `path` exists; any failure but "not found" is a StorageError naming it. */
export async function exists(path: string): Promise<boolean> {
  return unlessAbsent(path, 'read', () => stat(path).then(() => true), false)
}

/** The names in a folder; none when it does not exist (any other failure names it). */
export async function readdirOrEmpty(dir: string): Promise<string[]> {
  return unlessAbsent(dir, 'list', () => readdir(dir), [])
}

/** A marker file's text, trimmed; undefined when it is absent or empty. A marker that cannot be read names its path. */
export async function readMarker(file: string): Promise<string | undefined> {
  const text = await unlessAbsent(file, 'read', () => readFile(file, 'utf8'), undefined)
  return text?.trim() || undefined
}

/** Parsed JSON, or undefined when the text is not JSON (a file of ours that was cut short or edited by hand). */
export function parseJson<T>(text: string): T | undefined {
  try {
    return JSON.parse(text) as T
  } catch {
    return undefined
  }
}
