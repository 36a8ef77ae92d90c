/**
 * The one place the server touches `input_storage`: list, read, write and remove input files. A
 * local folder, or the local mirror of a container or bucket: there a write or a removal goes to
 * the store itself (then to the mirror), since the mirror is made equal to the store before every
 * listing and every run, which would undo a change made to the mirror alone.
 */
import { mkdir, readFile, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { compilePattern, DEFAULT_FILE_PATTERNS, partitionInputFiles } from '../index/input/files.js'
import type { LoadOptions } from '../index/input/load-documents.js'
import { writeFileAtomic } from '../storage/atomic-write.js'
import { joinKey } from '../storage/object/object-store.js'
import { remoteAt } from '../storage/object/remote.js'

export interface InputFile {
  /** Relative path with `/`. */
  path: string
  size: number
  modified: Date
}

export class InputStore {
  constructor(private readonly input: LoadOptions) {}

  get baseDir(): string {
    return this.input.baseDir
  }

  /** The files the indexer reads (input.type / file_pattern), sorted. */
  async list(): Promise<InputFile[]> {
    const pattern = compilePattern(this.input.file_pattern ?? DEFAULT_FILE_PATTERNS[this.input.type])
    const { matched } = await partitionInputFiles(this.input.baseDir, pattern).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return { matched: [] as string[] }
      throw error
    })
    return Promise.all(
      matched.map(async (path) => {
        const info = await stat(join(this.input.baseDir, path))
        return { path, size: info.size, modified: info.mtime }
      }),
    )
  }

  /** Whether the indexer would read a file stored under this name. */
  selects(path: string): boolean {
    const pattern = compilePattern(this.input.file_pattern ?? DEFAULT_FILE_PATTERNS[this.input.type])
    return pattern.test(path) || pattern.test(join(this.input.baseDir, path))
  }

  async exists(path: string): Promise<boolean> {
    return stat(join(this.input.baseDir, path)).then(
      () => true,
      () => false,
    )
  }

  read(path: string): Promise<Uint8Array> {
    return readFile(join(this.input.baseDir, path))
  }

  /** Written whole or not at all (a reader never sees half a file). */
  async write(path: string, bytes: Uint8Array): Promise<void> {
    const remote = remoteAt(this.input.baseDir)
    if (remote !== undefined) await remote.store().put(joinKey(remote.prefix, path), bytes)
    const full = join(this.input.baseDir, path)
    await mkdir(dirname(full), { recursive: true })
    await writeFileAtomic(full, bytes)
  }

  async remove(path: string): Promise<void> {
    const remote = remoteAt(this.input.baseDir)
    if (remote !== undefined) await remote.store().delete(joinKey(remote.prefix, path))
    await rm(join(this.input.baseDir, path), { force: true })
  }
}
