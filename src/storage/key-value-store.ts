/**
 * String key-value storage with partitions (`child`), used by the LLM and noun-phrase caches (whose
 * store on disk and in object storage is packed-kv.ts) and the batch state.
 * FileKeyValueStore's layout: `<base>/<child>/<key>`, one file per entry, written atomically (the
 * cache's layout before packs, still read by them).
 */
import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from './atomic-write.js'
import { unlessAbsent } from './fs-errors.js'

export interface KeyValueStore {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string): Promise<void>
  delete(key: string): Promise<void>
  keys(): Promise<string[]>
  child(name: string): KeyValueStore
  /** Makes every write so far durable (stores that batch writes hold them until then). */
  flush(): Promise<void>
}

export class FileKeyValueStore implements KeyValueStore {
  constructor(readonly baseDir: string) {}

  /** A missing entry is a miss; an unreadable one is a StorageError (a miss would pay for the call again). */
  async get(key: string): Promise<string | undefined> {
    const file = join(this.baseDir, key)
    return unlessAbsent(file, 'read cache entry', () => readFile(file, 'utf8'), undefined)
  }

  async set(key: string, value: string): Promise<void> {
    await writeFileAtomic(join(this.baseDir, key), value)
  }

  async delete(key: string): Promise<void> {
    await rm(join(this.baseDir, key), { force: true })
  }

  async keys(): Promise<string[]> {
    const entries = await unlessAbsent(
      this.baseDir,
      'list cache folder',
      () => readdir(this.baseDir, { withFileTypes: true }),
      [],
    )
    return entries
      .filter((e) => e.isFile() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
  }

  child(name: string): KeyValueStore {
    return new FileKeyValueStore(join(this.baseDir, name))
  }

  /** Each write is durable when it returns. */
  async flush(): Promise<void> {}
}

export class MemoryKeyValueStore implements KeyValueStore {
  private readonly entries = new Map<string, string>()
  private readonly children = new Map<string, MemoryKeyValueStore>()

  async get(key: string): Promise<string | undefined> {
    return this.entries.get(key)
  }

  async set(key: string, value: string): Promise<void> {
    this.entries.set(key, value)
  }

  async delete(key: string): Promise<void> {
    this.entries.delete(key)
  }

  async keys(): Promise<string[]> {
    return [...this.entries.keys()].sort()
  }

  child(name: string): KeyValueStore {
    let child = this.children.get(name)
    if (child === undefined) {
      child = new MemoryKeyValueStore()
      this.children.set(name, child)
    }
    return child
  }

  async flush(): Promise<void> {}
}

/** A store that keeps nothing: `cache.type: none` and `--no-cache`. */
export class NullKeyValueStore implements KeyValueStore {
  async get(): Promise<string | undefined> {
    return undefined
  }
  async set(): Promise<void> {}
  async delete(): Promise<void> {}
  async keys(): Promise<string[]> {
    return []
  }
  child(): KeyValueStore {
    return this
  }
  async flush(): Promise<void> {}
}
