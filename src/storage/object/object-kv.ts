/**
 * The cache in a container or bucket, shared by runs on several machines at once. Objects cannot be
 * appended to, so each flush of a partition's entries writes one pack object whole
 * (`<partition>/.pack-<writer>.<sequence>`, create-only: no writer ever replaces another's), and a
 * partition's packs are all read when it is first used (packed-kv.ts). Entries of the older layout,
 * one object per key, are listed at the same time and read when asked for.
 *
 * Entries another machine writes after this run read a partition are not seen by this run (it may ask
 * the model for them again); the final run after a sharded matrix starts after the shards, so it reads
 * everything they wrote.
 */
import type { KeyValueStore } from '../key-value-store.js'
import { PackFolder } from '../pack-folder.js'
import { encodeRecords, scanRecords, type PackRecord } from '../pack-format.js'
import { PACK_PREFIX, PackedKeyValueStore, type PackMedium, type ValueRef } from '../packed-kv.js'
import { joinKey, type ObjectStore } from './object-store.js'
import { remoteAt } from './remote.js'

class ObjectPacks implements PackMedium {
  constructor(
    private readonly store: ObjectStore,
    private readonly prefix: string,
  ) {}

  /** The objects directly in this partition (not those of its children). */
  async list(): Promise<{ packs: string[]; legacy: string[] }> {
    const base = this.prefix === '' ? '' : `${this.prefix}/`
    const names = (await this.store.list(base)).map((o) => o.key.slice(base.length)).filter((k) => !k.includes('/'))
    return {
      packs: names.filter((n) => n.startsWith(PACK_PREFIX)),
      legacy: names.filter((n) => n !== '' && !n.startsWith('.')),
    }
  }

  async scan(pack: string, found: (key: string, value: ValueRef | undefined) => void): Promise<void> {
    const object = await this.store.get(joinKey(this.prefix, pack))
    if (object === undefined) return
    const bytes = Buffer.from(object.body.buffer, object.body.byteOffset, object.body.byteLength)
    for (const r of scanRecords(bytes, 0).records)
      found(r.key, r.deleted ? undefined : bytes.toString('utf8', r.valueOffset, r.valueOffset + r.valueLength))
  }

  /** Values of object packs are kept in memory when read (`scan`); there is no place to read them from. */
  async read(ref: { pack: string }): Promise<string> {
    throw new Error(`cache pack ${ref.pack}: values of object-store packs are held in memory`)
  }

  async readLegacy(key: string): Promise<string | undefined> {
    const object = await this.store.get(joinKey(this.prefix, key))
    return object === undefined ? undefined : new TextDecoder().decode(object.body)
  }

  async deleteLegacy(key: string): Promise<void> {
    await this.store.delete(joinKey(this.prefix, key))
  }

  async write(pack: string, sequence: number, records: readonly PackRecord[]): Promise<Array<ValueRef | undefined>> {
    const name = `${pack}.${String(sequence).padStart(6, '0')}`
    await this.store.put(joinKey(this.prefix, name), encodeRecords(records).bytes, { ifAbsent: true })
    return records.map((r) => r.value)
  }

  child(name: string): PackMedium {
    return new ObjectPacks(this.store, joinKey(this.prefix, name))
  }
}

/** The model cache at `dir`: a folder, or the container or bucket that cache.storage names. */
export function keyValueStoreAt(dir: string): KeyValueStore {
  const loc = remoteAt(dir)
  return new PackedKeyValueStore(loc === undefined ? new PackFolder(dir) : new ObjectPacks(loc.store(), loc.prefix))
}
