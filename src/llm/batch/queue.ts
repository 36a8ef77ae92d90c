/**
 * Collects the requests a model is asked for while a workflow step is under way and sends them as
 * provider batches. A step issues its calls together (extraction of every chunk, a gleaning round,
 * a report level), so the queue waits until no new request has come for `collectMs`, then submits
 * what it holds (split at the provider's limits) and polls every `pollMs` until the batch ends;
 * each caller then gets its own line. A request already submitted (by this process or an earlier
 * one: see state.ts) waits for its batch instead of being sent again, and one whose answer was
 * collected before is answered from the saved line.
 */
import { GraphragError } from '../../errors.js'
import type { Logger } from '../../logger.js'
import { AttemptFailure } from '../failure.js'
import type { BatchState, SubmittedBatch } from './state.js'
import { type BatchApi, type BatchLine, type LineResult, lineBytes } from './types.js'

export interface BatchQueueOptions {
  api: BatchApi
  state: BatchState
  /** Names the model in messages (`completion_models.default_completion_model`). */
  modelRef: string
  pollMs: number
  collectMs: number
  /** `--no-wait`: a batch still running at its first poll stops the run (BatchesPending) instead of being waited for. */
  noWait: boolean
  log?: Logger
  /** After each submission and collection (saves the work to object storage, refreshes progress). */
  onChange?: () => void
}

export interface BatchProgress {
  /** Batches this run submitted. */
  submitted: number
  /** Batches submitted (by this run or an earlier one) and not collected yet. */
  pending: number
  /** Batches this run collected (some may have been submitted by an earlier run). */
  done: number
  /** Lines of the batches this run submitted or collected. */
  linesSent: number
  linesAnswered: number
}

/** `--no-wait` found batches still running: the run stops; a later run collects them. Not an LlmError, so no item counts as failed. */
export class BatchesPending extends GraphragError {
  constructor(
    readonly modelRef: string,
    readonly batches: readonly SubmittedBatch[],
  ) {
    const lines = batches.reduce((n, b) => n + b.keys.length, 0)
    super(
      'LLM',
      `${modelRef}: ${batches.length} ${batches.length === 1 ? 'batch' : 'batches'} (${lines} requests) still running: ${batches.map((b) => b.id).join(', ')}`,
    )
    this.name = 'BatchesPending'
  }
}

const NO_WAIT_POLL_MS = 2000

interface Waiter {
  resolve(result: LineResult): void
  reject(error: unknown): void
}

export class BatchQueue {
  private readonly collecting = new Map<string, BatchLine>()
  private readonly waiters = new Map<string, Waiter[]>()
  /** Keys whose saved line a call of this process already took (a retry of an unusable reply asks anew). */
  private readonly taken = new Set<string>()
  private idle: NodeJS.Timeout | undefined
  private pollTimer: NodeJS.Timeout | undefined
  /** Polls run one after another: a batch is never polled (or collected) twice at once. */
  private polls: Promise<void> = Promise.resolve()
  private readonly counts = { submitted: 0, done: 0, linesSent: 0, linesAnswered: 0 }
  private readonly submittedHere = new Set<string>()
  private closed: unknown

  constructor(private readonly options: BatchQueueOptions) {}

  progress(): BatchProgress {
    return { ...this.counts, pending: this.options.state.pending().length }
  }

  /**
   * No more submissions or polls: requests not yet submitted are dropped and whoever still waits gets
   * `reason` (the run is over, or was interrupted). Submitted batches stay in the saved state.
   */
  close(reason: unknown = aborted()): void {
    this.closed = reason
    clearTimeout(this.idle)
    clearTimeout(this.pollTimer)
    this.collecting.clear()
    for (const key of [...this.waiters.keys()]) this.fail(key, reason)
  }

  async request(line: BatchLine, signal: AbortSignal | undefined): Promise<LineResult> {
    const { state } = this.options
    await state.load()
    if (!this.taken.has(line.key)) {
      const saved = await state.answered(line.key)
      if (saved !== undefined) {
        this.taken.add(line.key)
        return saved
      }
    }
    if (signal?.aborted === true) throw aborted()
    if (this.closed !== undefined) throw this.closed
    return new Promise<LineResult>((resolve, reject) => {
      // The run's signal lives as long as the run: its listener goes once the wait is over.
      const onAbort = () => this.abandon(line.key, waiter)
      const done = () => signal?.removeEventListener('abort', onAbort)
      const waiter: Waiter = {
        resolve(result) {
          done()
          resolve(result)
        },
        reject(error) {
          done()
          reject(error)
        },
      }
      signal?.addEventListener('abort', onAbort, { once: true })
      const list = this.waiters.get(line.key)
      if (list !== undefined) {
        list.push(waiter)
        return
      }
      this.waiters.set(line.key, [waiter])
      if (state.batchHolding(line.key) !== undefined) this.schedulePoll()
      else this.collect(line)
    })
  }

  private collect(line: BatchLine): void {
    this.collecting.set(line.key, line)
    clearTimeout(this.idle)
    if (this.collecting.size >= this.options.api.maxLines) this.flush()
    else this.idle = setTimeout(() => this.flush(), this.options.collectMs)
  }

  private abandon(key: string, waiter: Waiter): void {
    const list = this.waiters.get(key)
    if (list === undefined || !list.includes(waiter)) return
    const rest = list.filter((w) => w !== waiter)
    if (rest.length > 0) this.waiters.set(key, rest)
    else {
      this.waiters.delete(key)
      this.collecting.delete(key)
    }
    waiter.reject(aborted())
  }

  private flush(): void {
    const lines = [...this.collecting.values()]
    this.collecting.clear()
    for (const chunk of chunks(lines, this.options.api)) void this.submit(chunk)
  }

  private async submit(lines: readonly BatchLine[]): Promise<void> {
    const keys = lines.map((l) => l.key)
    let id: string
    try {
      id = await this.options.api.submit(lines)
    } catch (error) {
      for (const key of keys) this.fail(key, error)
      return
    }
    try {
      await this.options.state.add({ id, keys, submitted: new Date().toISOString() })
    } catch (error) {
      // Submitted but not recorded (the disk failed): the callers stop; a re-run submits these requests again.
      for (const key of keys) this.fail(key, error)
      return
    }
    this.submittedHere.add(id)
    this.counts.submitted += 1
    this.counts.linesSent += lines.length
    this.options.log?.info(`${this.options.modelRef}: submitted batch ${id} (${lines.length} requests)`)
    this.options.onChange?.()
    this.schedulePoll()
  }

  private schedulePoll(): void {
    // --no-wait polls once, soon: a CI job need not sit out a whole poll interval to learn the batch runs on.
    const wait = this.options.noWait ? Math.min(this.options.pollMs, NO_WAIT_POLL_MS) : this.options.pollMs
    this.pollTimer ??= setTimeout(() => {
      this.pollTimer = undefined
      this.polls = this.polls.then(() => this.pollAll()).catch((error: unknown) => this.close(error))
    }, wait)
  }

  /** Polls the batches someone waits for; collects the finished ones; polls again while any runs. */
  private async pollAll(): Promise<void> {
    const wanted = this.options.state.pending().filter((b) => b.keys.some((k) => this.waiters.has(k)))
    const running: SubmittedBatch[] = []
    for (const batch of wanted) if (!(await this.pollOne(batch))) running.push(batch)
    if (running.length === 0) return
    if (!this.options.noWait) return this.schedulePoll()
    const stop = new BatchesPending(this.options.modelRef, running)
    for (const batch of running) for (const key of batch.keys) this.fail(key, stop)
  }

  /** True when the batch is no longer running (collected, or failed to be polled for good). */
  private async pollOne(batch: SubmittedBatch): Promise<boolean> {
    const { api, state } = this.options
    try {
      const status = await api.status(batch.id)
      if (status === 'pending') return false
      const results = await api.results(batch.id)
      await state.collected(batch.id, results)
      // A batch an earlier run submitted: its lines count as sent for this run's "answered of sent".
      if (!this.submittedHere.has(batch.id)) this.counts.linesSent += batch.keys.length
      this.counts.done += 1
      this.counts.linesAnswered += [...results.values()].filter((r) => r.ok).length
      this.options.log?.info(`${this.options.modelRef}: batch ${batch.id} ${status} (${results.size} lines)`)
      this.options.onChange?.()
      for (const key of batch.keys) this.settle(key, results.get(key) ?? unanswered(batch.id, status))
      return true
    } catch (error) {
      if (error instanceof AttemptFailure && error.retryable) {
        this.options.log?.warn(
          `${this.options.modelRef}: polling batch ${batch.id} failed (${error.message}); polling again`,
        )
        return false
      }
      if (error instanceof AttemptFailure && error.status === 404) return this.forget(batch, error)
      for (const key of batch.keys) this.fail(key, error)
      return true
    }
  }

  /**
   * The provider does not know the batch (deleted, or another account's key): it is dropped from the
   * saved state, and its requests, unanswered, are asked again in a new batch (else every later run
   * would stop on it).
   */
  private async forget(batch: SubmittedBatch, error: AttemptFailure): Promise<boolean> {
    await this.options.state.collected(batch.id, new Map())
    this.options.log?.warn(
      `${this.options.modelRef}: batch ${batch.id} is unknown to the provider (${error.message}); its requests are submitted again`,
    )
    for (const key of batch.keys) this.settle(key, unanswered(batch.id, 'unknown to the provider'))
    return true
  }

  private settle(key: string, result: LineResult): void {
    const list = this.waiters.get(key)
    this.waiters.delete(key)
    this.taken.add(key)
    for (const waiter of list ?? []) waiter.resolve(result)
  }

  private fail(key: string, error: unknown): void {
    const list = this.waiters.get(key)
    this.waiters.delete(key)
    for (const waiter of list ?? []) waiter.reject(error)
  }
}

/** Batches of one kind of line within the provider's line and byte limits. */
function chunks(lines: readonly BatchLine[], api: BatchApi): BatchLine[][] {
  const out: BatchLine[][] = []
  for (const kind of ['chat', 'embedding'] as const) {
    let current: BatchLine[] = []
    let bytes = 0
    for (const line of lines.filter((l) => l.kind === kind)) {
      const size = lineBytes(line)
      if (current.length > 0 && (current.length >= api.maxLines || bytes + size > api.maxBytes)) {
        out.push(current)
        current = []
        bytes = 0
      }
      current.push(line)
      bytes += size
    }
    if (current.length > 0) out.push(current)
  }
  return out
}

function unanswered(id: string, status: string): LineResult {
  return {
    ok: false,
    status: undefined,
    message: `batch ${id} ${status} without answering this request`,
    retryable: true,
  }
}

function aborted(): AttemptFailure {
  return new AttemptFailure('request aborted', { kind: 'aborted', retryable: false })
}
