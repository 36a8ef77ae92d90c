/**
 * The cache in a container or bucket, shared by runs on several machines at once: one object per
 * entry, created with a create-only write, so an entry is written once and whole; a second
 * writer of the same key (another machine that asked the model meanwhile) keeps the first reply.
 */
import { FileKeyValueStore, type KeyValueStore } from '../key-value-store.js'
import { ConditionFailedError, joinKey, type ObjectStore } from './object-store.js'
import { remoteAt } from './remote.js'

class ObjectKeyValueStore implements KeyValueStore {
  constructor(
    private readonly store: ObjectStore,
    private readonly prefix: string,
  ) {}

  async get(key: string): Promise<string | undefined> {
    const object = await this.store.get(joinKey(this.prefix, key))
    return object === undefined ? undefined : new TextDecoder().decode(object.body)
  }

  async set(key: string, value: string): Promise<void> {
    try {
      await this.store.put(joinKey(this.prefix, key), value, { ifAbsent: true })
    } catch (error) {
      if (!(error instanceof ConditionFailedError)) throw error
    }
  }

  async delete(key: string): Promise<void> {
    await this.store.delete(joinKey(this.prefix, key))
  }

  async keys(): Promise<string[]> {
    const base = this.prefix === '' ? '' : `${this.prefix}/`
    return (await this.store.list(base))
      .map((o) => o.key.slice(base.length))
      .filter((k) => k !== '' && !k.includes('/') && !k.startsWith('.'))
      .sort()
  }

  child(name: string): KeyValueStore {
    return new ObjectKeyValueStore(this.store, joinKey(this.prefix, name))
  }
}

/** The cache at `dir`: a folder, or the container or bucket that cache.storage names. */
export function keyValueStoreAt(dir: string): KeyValueStore {
  const loc = remoteAt(dir)
  return loc === undefined ? new FileKeyValueStore(dir) : new ObjectKeyValueStore(loc.store(), loc.prefix)
}
