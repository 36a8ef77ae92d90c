/**
 * The one place the server touches `input_storage`: list, read, write and remove input files. Today
 * a local folder; an object store behind a storage interface replaces this module alone.
 */
import { mkdir, readFile, rm, stat } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { compilePattern, DEFAULT_FILE_PATTERNS, partitionInputFiles } from '../index/input/files.js'
import type { LoadOptions } from '../index/input/load-documents.js'
import { writeFileAtomic } from '../storage/atomic-write.js'

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
    const full = join(this.input.baseDir, path)
    await mkdir(dirname(full), { recursive: true })
    await writeFileAtomic(full, bytes)
  }

  async remove(path: string): Promise<void> {
    await rm(join(this.input.baseDir, path), { force: true })
  }
}
