/**
 * The cache in a container or bucket, shared by runs on several machines at once: one object per
 * entry, created with a create-only write, so an entry is written once and whole; a second
 * writer of the same key (another machine that asked the model meanwhile) keeps the first reply.
 *
 * Each partition is listed once, when it is first read: a key that was not there is a miss at
 * once, without a request. A run that starts on an empty cache (a new corpus, a fresh CI job)
 * would otherwise pay a read that misses before every model call. Entries another machine
 * writes after the listing are not seen by this run (it may ask the model for them again; the
 * first reply stays in the store); the final run after a sharded matrix starts after the
 * shards, so it lists everything they wrote.
 */
import { FileKeyValueStore, type KeyValueStore } from '../key-value-store.js'
import { ConditionFailedError, joinKey, type ObjectStore } from './object-store.js'
import { remoteAt } from './remote.js'

class ObjectKeyValueStore implements KeyValueStore {
  /** The partition's keys as listed when it was first read, plus those this process wrote since. */
  private present: Promise<Set<string>> | undefined
  private readonly children = new Map<string, ObjectKeyValueStore>()

  constructor(
    private readonly store: ObjectStore,
    private readonly prefix: string,
  ) {}

  async get(key: string): Promise<string | undefined> {
    if (!key.includes('/') && !(await this.listed()).has(key)) return undefined
    const object = await this.store.get(joinKey(this.prefix, key))
    return object === undefined ? undefined : new TextDecoder().decode(object.body)
  }

  async set(key: string, value: string): Promise<void> {
    try {
      await this.store.put(joinKey(this.prefix, key), value, { ifAbsent: true })
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error
    }
    ;(await this.present)?.add(key)
  }

  async delete(key: string): Promise<void> {
    await this.store.delete(joinKey(this.prefix, key))
    ;(await this.present)?.delete(key)
  }

  async keys(): Promise<string[]> {
    return (await this.list()).sort()
  }

  child(name: string): KeyValueStore {
    let child = this.children.get(name)
    if (child === undefined)
      this.children.set(name, (child = new ObjectKeyValueStore(this.store, joinKey(this.prefix, name))))
    return child
  }

  private listed(): Promise<Set<string>> {
    if (this.present === undefined) {
      this.present = this.list().then((keys) => new Set(keys))
      // A failed listing is not kept: the next read lists again (and reports the store's error).
      this.present.catch(() => {
        this.present = undefined
      })
    }
    return this.present
  }

  /** The entries directly in this partition (not those of its children). */
  private async list(): Promise<string[]> {
    const base = this.prefix === '' ? '' : `${this.prefix}/`
    return (await this.store.list(base))
      .map((o) => o.key.slice(base.length))
      .filter((k) => k !== '' && !k.includes('/') && !k.startsWith('.'))
  }
}

/** The cache at `dir`: a folder, or the container or bucket that cache.storage names. */
export function keyValueStoreAt(dir: string): KeyValueStore {
  const loc = remoteAt(dir)
  return loc === undefined ? new FileKeyValueStore(dir) : new ObjectKeyValueStore(loc.store(), loc.prefix)
}
