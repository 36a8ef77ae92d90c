/** Content fingerprint of the input folder, so a changed, added or removed input file re-runs loading. */
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { listInputFiles } from './files.js'

const EVERY_FILE = /(?:)/

export async function inputFilesFingerprint(baseDir: string): Promise<string> {
  const hash = createHash('sha256')
  for (const file of await listInputFiles(baseDir, EVERY_FILE)) {
    hash.update(file).update('\u0000')
    hash.update(await contentHash(join(baseDir, file))).update('\u0000')
  }
  return hash.digest('hex')
}

/** An unreadable file must not stop the run here: the loader reports it; its error code stands in for the content. */
async function contentHash(file: string): Promise<string> {
  try {
    return createHash('sha256')
      .update(await readFile(file))
      .digest('hex')
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException).code ?? 'error'}`
  }
}
