/**
 * What batch mode keeps in the run's saved work, so that no request is paid for twice whatever
 * stops the process: the batches submitted and not yet collected (`state.json`: id and the keys of
 * its lines), and every collected line's result (`lines/<key>`) until a call takes it. Lines are
 * written before the batch leaves state.json, so a kill in between only downloads the batch again.
 */
import { StorageError } from '../../errors.js'
import type { KeyValueStore } from '../../storage/key-value-store.js'
import type { LineResult } from './types.js'

export interface SubmittedBatch {
  id: string
  keys: string[]
  submitted: string
}

interface StateFile {
  version: 1
  batches: SubmittedBatch[]
}

const STATE_KEY = 'state.json'

export class BatchState {
  private file: StateFile = { version: 1, batches: [] }
  private readonly byKey = new Map<string, SubmittedBatch>()
  private loaded: Promise<void> | undefined
  private writes: Promise<void> = Promise.resolve()
  private readonly lines: KeyValueStore

  /** `where` names the state's folder in errors (`output/.output.run/work/.batches/<model>`). */
  constructor(
    private readonly store: KeyValueStore,
    private readonly where: string,
  ) {
    this.lines = store.child('lines')
  }

  /** Reads state.json once; an absent or unreadable one means no batch is pending. */
  load(): Promise<void> {
    this.loaded ??= this.store.get(STATE_KEY).then((text) => {
      const parsed = text === undefined ? undefined : this.parse<Partial<StateFile>>(text, STATE_KEY)
      if (parsed?.version === 1 && Array.isArray(parsed.batches)) this.file = { version: 1, batches: parsed.batches }
      for (const batch of this.file.batches) for (const key of batch.keys) this.byKey.set(key, batch)
    })
    return this.loaded
  }

  pending(): readonly SubmittedBatch[] {
    return this.file.batches
  }

  batchHolding(key: string): SubmittedBatch | undefined {
    return this.byKey.get(key)
  }

  async add(batch: SubmittedBatch): Promise<void> {
    this.file.batches.push(batch)
    for (const key of batch.keys) this.byKey.set(key, batch)
    await this.save()
  }

  /** Stores the batch's answered lines, then forgets the batch. */
  async collected(id: string, results: ReadonlyMap<string, LineResult>): Promise<void> {
    for (const [key, result] of results) await this.lines.set(key, JSON.stringify(result))
    this.file.batches = this.file.batches.filter((b) => b.id !== id)
    for (const [key, batch] of this.byKey) if (batch.id === id) this.byKey.delete(key)
    await this.save()
  }

  async answered(key: string): Promise<LineResult | undefined> {
    const text = await this.lines.get(key)
    return text === undefined ? undefined : this.parse<LineResult>(text, `lines/${key}`)
  }

  /** A damaged file is not taken as "nothing pending": that could pay for the batches again. */
  private parse<T>(text: string, file: string): T {
    try {
      return JSON.parse(text) as T
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error
      throw new StorageError(
        `${this.where}/${file} is not valid JSON (${error.message}); delete ${this.where} to forget its batches (their requests are then submitted again)`,
        { path: `${this.where}/${file}` },
      )
    }
  }

  /** Writes one after another, each the whole state as it is then. */
  private save(): Promise<void> {
    this.writes = this.writes.then(() => this.store.set(STATE_KEY, `${JSON.stringify(this.file, null, 2)}\n`))
    return this.writes
  }
}
