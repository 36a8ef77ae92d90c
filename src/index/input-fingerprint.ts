/** Content fingerprint of the input folder, so a changed, added or removed input file re-runs loading. */
import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { join, relative } from 'node:path'

export async function inputFilesFingerprint(baseDir: string): Promise<string> {
  const hash = createHash('sha256')
  for (const file of await listFiles(baseDir)) {
    hash.update(relative(baseDir, file)).update('\u0000')
    hash.update(await contentHash(file)).update('\u0000')
  }
  return hash.digest('hex')
}

/** An unreadable file must not stop the run here: the loader reports it; its error code stands in for the content. */
async function contentHash(file: string): Promise<string> {
  try {
    return createHash('sha256').update(await readFile(file)).digest('hex')
  } catch (error) {
    return `unreadable:${(error as NodeJS.ErrnoException).code ?? 'error'}`
  }
}

async function listFiles(dir: string): Promise<string[]> {
  let entries
  try {
    entries = await readdir(dir, { withFileTypes: true })
  } catch {
    return []
  }
  const out: string[] = []
  for (const entry of entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...(await listFiles(path)))
    else if (entry.isFile()) out.push(path)
  }
  return out
}
