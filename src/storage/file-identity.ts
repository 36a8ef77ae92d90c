/**
 * A local file's identity: device, inode, size and modification time (ns). Tables are replaced by
 * rename (a new inode) and a work generation hard-links the files it keeps, so an equal identity means
 * equal bytes; an edit in place changes the size or the modification time. Used to remember what was
 * derived from a table (its hash, its decoded rows) without reading it again.
 */
import { stat } from 'node:fs/promises'
import { unlessAbsent } from './fs-errors.js'

/** Undefined for an absent file or a non-file, and on a filesystem that gives no inode numbers (identities could collide there). */
export async function fileIdentity(path: string): Promise<string | undefined> {
  const s = await unlessAbsent(path, 'read table', () => stat(path, { bigint: true }), undefined)
  return s === undefined || !s.isFile() || s.ino === 0n ? undefined : `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`
}
