/** Crash-safe file writes: write a temporary sibling, then rename over the target. */
import { randomBytes } from 'node:crypto'
import { mkdir, rename, rm, writeFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'

export async function writeFileAtomic(path: string, data: Uint8Array | string): Promise<void> {
  await writeFileAtomicBy(path, (tmp) => writeTemporary(tmp, data))
}

/**
 * writeFileAtomic for a writer that makes the file itself (a Parquet worker writing its parts as they
 * come): `write` fills the temporary sibling it is given, which is then renamed over `path`, or removed
 * when `write` fails. The folder is made first when missing.
 */
export async function writeFileAtomicBy(path: string, write: (tmp: string) => Promise<unknown>): Promise<void> {
  // The temporary name is unique per write so concurrent writers never share a file.
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
  try {
    await write(tmp)
    await rename(tmp, path)
  } catch (error) {
    await rm(tmp, { force: true })
    throw error
  }
}

/**
 * The folder is created only when the write finds it missing: a cache writes one file per model
 * reply into a folder that exists after the first, and a mkdir per write cost as much as the write.
 */
async function writeTemporary(tmp: string, data: Uint8Array | string): Promise<void> {
  try {
    await writeFile(tmp, data)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    await mkdir(dirname(tmp), { recursive: true })
    await writeFile(tmp, data)
  }
}
