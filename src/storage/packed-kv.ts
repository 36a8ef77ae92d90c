/**
 * The model cache without a file (or an object) per entry: each partition's entries are written in
 * batches to packs (pack-format.ts), one pack per writing process and partition, so shards writing the
 * same cache never touch each other's packs. A partition is read once, when first used: every pack
 * and the names of the entries of the older one-file-per-key layout, which stay readable. Lookups
 * are then answered from that index in memory; a key in none is a miss without any I/O.
 *
 * Writes wait in memory and go out together: when `FLUSH_ENTRIES` or `FLUSH_BYTES` wait, after
 * `FLUSH_MS`, and on `flush()` (the runner calls it when a workflow ends, also when it fails). A
 * process killed in between loses at most those entries; a pack torn mid-write keeps its earlier ones.
 *
 * Precedence, the same in every reader: an old-layout entry over the packs (this version never writes
 * one: it is there because an older version or another tool put it there, and setting the key again
 * removes it); among packs, ordered by name (which starts with the writer's start time), the later
 * record wins, as it does within a pack.
 */
import { randomBytes } from 'node:crypto'
import type { KeyValueStore } from './key-value-store.js'
import type { PackRecord } from './pack-format.js'

const FLUSH_ENTRIES = 1000
const FLUSH_BYTES = 8 * 2 ** 20
const FLUSH_MS = 1000

/** Where a value is: in memory (pending, or read from a whole pack), or at a place in a pack file. */
export type ValueRef = string | { pack: string; offset: number; length: number }

/** One partition's storage: a folder, or a prefix in a container or bucket. */
export interface PackMedium {
  /** The partition's pack names (unordered) and old-layout entry keys; none when it does not exist. */
  list(): Promise<{ packs: string[]; legacy: string[] }>
  /** Calls `found` for each intact record of the pack, in order. */
  scan(pack: string, found: (key: string, value: ValueRef | undefined) => void): Promise<void>
  read(ref: Exclude<ValueRef, string>): Promise<string>
  readLegacy(key: string): Promise<string | undefined>
  deleteLegacy(key: string): Promise<void>
  /** Adds the records to this writer's pack `pack` (`sequence`: the how-many-th write); the refs of their values. */
  write(pack: string, sequence: number, records: readonly PackRecord[]): Promise<Array<ValueRef | undefined>>
  /** The medium of partition `name` under this one. */
  child(name: string): PackMedium
}

/** The pack name prefix; a leading dot keeps packs out of the older versions' key listings. */
export const PACK_PREFIX = '.pack-'

function sizeOf(record: PackRecord): number {
  return record.key.length + (record.value?.length ?? 0)
}

/** Names sort by the writer's start time, then by process and a random tail. */
function writerId(): string {
  return `${Date.now().toString(36).padStart(9, '0')}-${process.pid}-${randomBytes(4).toString('hex')}`
}

interface Shared {
  readonly writer: string
  readonly partitions: Map<string, PackedKeyValueStore>
}

export class PackedKeyValueStore implements KeyValueStore {
  private index: Promise<Map<string, ValueRef>> | undefined
  private legacy = new Set<string>()
  private pending: PackRecord[] = []
  private pendingBytes = 0
  private timer: NodeJS.Timeout | undefined
  private writes: Promise<void> = Promise.resolve()
  private sequence = 0
  /** Bumped after a failed write, whose torn end would hide the batches after it: they go to a new pack. */
  private rotation = 0

  constructor(
    private readonly medium: PackMedium,
    private readonly path = '',
    private readonly shared: Shared = { writer: writerId(), partitions: new Map() },
  ) {
    shared.partitions.set(path, this)
  }

  async get(key: string): Promise<string | undefined> {
    const index = await this.loaded()
    if (this.legacy.has(key)) return this.medium.readLegacy(key)
    const ref = index.get(key)
    return typeof ref === 'object' ? this.medium.read(ref) : ref
  }

  async set(key: string, value: string): Promise<void> {
    ;(await this.loaded()).set(key, value)
    // The file would otherwise keep answering in place of the new value.
    if (this.legacy.delete(key)) await this.medium.deleteLegacy(key)
    await this.enqueue({ key, value })
  }

  async delete(key: string): Promise<void> {
    const index = await this.loaded()
    if (this.legacy.delete(key)) await this.medium.deleteLegacy(key)
    if (index.delete(key)) await this.enqueue({ key, value: undefined })
  }

  async keys(): Promise<string[]> {
    const index = await this.loaded()
    return [...new Set([...index.keys(), ...this.legacy])].sort()
  }

  child(name: string): KeyValueStore {
    const path = this.path === '' ? name : `${this.path}/${name}`
    return this.shared.partitions.get(path) ?? new PackedKeyValueStore(this.medium.child(name), path, this.shared)
  }

  /** Writes what waits, in this partition and every partition opened through the same root. */
  async flush(): Promise<void> {
    const all = this.path === '' ? [...this.shared.partitions.values()] : [this]
    await Promise.all(all.map((p) => p.flushOwn()))
  }

  private async flushOwn(): Promise<void> {
    if (this.timer !== undefined) clearTimeout(this.timer)
    this.timer = undefined
    const batch = this.pending
    this.pending = []
    this.pendingBytes = 0
    // One writer per pack: batches go out one after another, in the order they were taken. An earlier
    // batch's failure was reported to its own flush; this one is written all the same.
    const write = this.writes.catch(() => undefined).then(() => (batch.length > 0 ? this.writeBatch(batch) : undefined))
    this.writes = write
    await write
  }

  private async writeBatch(batch: PackRecord[]): Promise<void> {
    const index = await this.loaded()
    try {
      const pack = `${PACK_PREFIX}${this.shared.writer}${this.rotation === 0 ? '' : `~${this.rotation}`}`
      const refs = await this.medium.write(pack, this.sequence++, batch)
      // A value written again since this batch was taken stays as it is.
      batch.forEach((record, i) => {
        const ref = refs[i]
        if (ref !== undefined && index.get(record.key) === record.value) index.set(record.key, ref)
      })
    } catch (error) {
      // The entries wait for the next flush, except those set again since (the newer value waits too),
      // and go to a new pack: a torn end of this one would hide whatever came after it.
      this.rotation++
      const kept = batch.filter((r) => index.get(r.key) === r.value)
      this.pending = [...kept, ...this.pending]
      for (const r of kept) this.pendingBytes += sizeOf(r)
      throw error
    }
  }

  private async enqueue(record: PackRecord): Promise<void> {
    this.pending.push(record)
    this.pendingBytes += sizeOf(record)
    if (this.pending.length >= FLUSH_ENTRIES || this.pendingBytes >= FLUSH_BYTES) await this.flushOwn()
    // A timed write that fails keeps its entries waiting: the next flush retries them and reports the error.
    else this.timer ??= setTimeout(() => void this.flushOwn().catch(() => undefined), FLUSH_MS)
  }

  private loaded(): Promise<Map<string, ValueRef>> {
    if (this.index === undefined) {
      this.index = this.load()
      // A failed read is not kept: the next use reads again (and reports the store's error).
      this.index.catch(() => {
        this.index = undefined
      })
    }
    return this.index
  }

  private async load(): Promise<Map<string, ValueRef>> {
    const { packs, legacy } = await this.medium.list()
    const index = new Map<string, ValueRef>()
    for (const pack of packs.sort())
      await this.medium.scan(pack, (key, value) => {
        if (value === undefined) index.delete(key)
        else index.set(key, value)
      })
    this.legacy = new Set(legacy)
    return index
  }
}
