/**
 * Reuse of earlier model work kept in the index (the model_replies table): a cache layer that
 * answers from the previous generation's replies when the LLM cache has no entry (deleted, or
 * `--no-cache` on an update), and records every entry a workflow used so the new generation
 * carries exactly the replies its tables came from.
 */
import { AsyncLocalStorage } from 'node:async_hooks'
import { MODEL_REPLIES, type ModelReplyRow } from '../../model/model-replies.js'
import type { KeyValueStore } from '../../storage/key-value-store.js'
import type { TableStore } from '../../storage/table-store.js'

export class ReplyReuse {
  /** workflow → entries it used. */
  private readonly used = new Map<string, Map<string, ModelReplyRow>>()
  private workflow = ''
  // Workflows running side by side: each one's calls carry its name through their async context.
  private readonly scope = new AsyncLocalStorage<string>()
  private writes: Promise<void> = Promise.resolve()
  /** Entries answered from the previous replies rather than the cache. */
  reused = 0

  private constructor(
    private readonly previous: ReadonlyMap<string, string>,
    /**
     * The model_replies table as this object last read or wrote it: only it writes that table during a
     * run, so finishing a workflow needs no read of it (at 100k entities a 38 MB table, read after
     * every workflow, was a third of an update's time outside the workflows).
     */
    private tableRows: readonly ModelReplyRow[],
    /** Partitions not recorded: embedding vectors (LanceDB holds them). */
    private readonly skip: ReadonlySet<string>,
    /** False when the index had no model_replies table (built by Microsoft GraphRAG or before it existed). */
    readonly hadReplies: boolean,
  ) {}

  /** Reads the replies of the index being continued (the work generation as seeded). */
  static async open(tables: TableStore, skipPartitions: readonly string[]): Promise<ReplyReuse> {
    const previous = new Map<string, string>()
    const had = await tables.has(MODEL_REPLIES.name)
    const rows = had ? await tables.read(MODEL_REPLIES) : []
    for (const row of rows) previous.set(slot(row.partition, row.key), row.value)
    return new ReplyReuse(previous, rows, new Set(skipPartitions), had)
  }

  /** The cache the model registry gets: `inner` first, then the previous replies. */
  wrap(inner: KeyValueStore): KeyValueStore {
    return new ReusingStore(inner, '', this)
  }

  startWorkflow(name: string): void {
    this.workflow = name
    this.used.set(name, new Map())
  }

  /** Runs `fn` with every entry it uses recorded against `name`, whichever other workflows run at the same time. */
  within<T>(name: string, fn: () => Promise<T>): Promise<T> {
    this.used.set(name, new Map())
    return this.scope.run(name, fn)
  }

  private current(): string {
    return this.scope.getStore() ?? this.workflow
  }

  /**
   * Replaces the finished workflow's rows of model_replies with the entries it used (other workflows'
   * rows stay). Writes go one after another, each starting from the rows the previous one wrote.
   * `tables` is the store `open` read.
   */
  finishWorkflow(tables: TableStore, name: string = this.current()): Promise<void> {
    // The previous write's failure reached its own caller; this one still runs.
    const next = this.writes.catch(() => undefined).then(() => this.write(tables, name))
    this.writes = next
    return next
  }

  private async write(tables: TableStore, name: string): Promise<void> {
    const used = this.used.get(name) ?? new Map<string, ModelReplyRow>()
    const kept = this.tableRows.filter((r) => r.workflow !== name)
    // A workflow without model calls (loading, chunking, clustering) leaves the table as it is.
    if (used.size === 0 && kept.length === this.tableRows.length) return
    const rows = [...kept, ...used.values()].sort(
      (a, b) => compare(a.workflow, b.workflow) || compare(a.partition, b.partition) || compare(a.key, b.key),
    )
    await tables.write(MODEL_REPLIES, rows)
    this.tableRows = rows
    this.used.delete(name)
  }

  lookup(partition: string, key: string): string | undefined {
    return this.previous.get(slot(partition, key))
  }

  record(partition: string, key: string, value: string): void {
    const workflow = this.current()
    if (workflow === '' || this.skip.has(partition.split('/')[0]!)) return
    this.used.get(workflow)?.set(slot(partition, key), { workflow, partition, key, value })
  }

  forget(partition: string, key: string): void {
    this.used.get(this.current())?.delete(slot(partition, key))
  }
}

class ReusingStore implements KeyValueStore {
  constructor(
    private readonly inner: KeyValueStore,
    private readonly partition: string,
    private readonly owner: ReplyReuse,
  ) {}

  async get(key: string): Promise<string | undefined> {
    let value = await this.inner.get(key)
    if (value === undefined) {
      value = this.owner.lookup(this.partition, key)
      if (value === undefined) return undefined
      this.owner.reused++
      await this.inner.set(key, value)
    }
    this.owner.record(this.partition, key, value)
    return value
  }

  async set(key: string, value: string): Promise<void> {
    await this.inner.set(key, value)
    this.owner.record(this.partition, key, value)
  }

  async delete(key: string): Promise<void> {
    await this.inner.delete(key)
    this.owner.forget(this.partition, key)
  }

  keys(): Promise<string[]> {
    return this.inner.keys()
  }

  flush(): Promise<void> {
    return this.inner.flush()
  }

  child(name: string): KeyValueStore {
    return new ReusingStore(
      this.inner.child(name),
      this.partition === '' ? name : `${this.partition}/${name}`,
      this.owner,
    )
  }
}

function slot(partition: string, key: string): string {
  return `${partition}\u0000${key}`
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}
