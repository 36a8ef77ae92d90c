/**
 * The server's index jobs: one at a time (a second start is a 409), progress taken from the runner's
 * Reporter events and kept so a client that connects late gets the current state first.
 */
import { randomUUID } from 'node:crypto'
import { GraphragError, RequestError } from '../errors.js'
import type { IndexMethod } from '../index/plan/pipelines.js'
import type { PipelineEndInfo, Reporter } from '../index/run/reporter.js'
import { Interruption, recordInterruption } from '../index/run/interrupt.js'
import { runIndex } from '../index/run/runner.js'
import { loadConfig } from '../config/index.js'
import { generationPaths } from '../storage/generations.js'
import { runUpdate, type DocumentChanges } from '../index/run/update.js'
import { maskUrlSecrets } from '../text/url-secrets.js'
import type { Project } from './query-service.js'
import type { RelationPatchFigures } from './seed-stages.js'

export interface JobEvent {
  event?: 'start' | 'result'
  data: Record<string, unknown>
}

/** `relations`: create_chunk_graph alone over the current index (the relations-only ingest, inc_rel_only). */
export type JobMode = 'index' | 'update' | 'relations'

/** A job started by POST /ingest: the path it read (as asked, and real), and its figures for the result. */
export interface IngestOrigin {
  paths: readonly string[]
  /** Fields added to the job's result when it has run (the seed design's chunks_new, …). */
  figures: () => Promise<Record<string, unknown>>
  /** Settings for this run only, as GRAPHRAG_<SECTION>__<KEY> variables (refresh_relations=false). */
  overrides?: Readonly<Record<string, string>>
  /** A relations-only job's figures (its stream's relation_incremental_* events carry them). */
  patch?: RelationPatchFigures
}

/** How long model calls already sent may take to finish (and be cached) once a job is stopped (as Ctrl-C on `index`). */
const STOP_GRACE_MS = 5000

export class IndexJob {
  readonly id = randomUUID()
  readonly startedAt = Date.now()
  status: 'running' | 'done' | 'error' | 'interrupted' = 'running'
  /** Stops the run the way Ctrl-C stops `graphrag index`: no new model call, nothing published. */
  readonly interruption = new Interruption()
  /** Settles when the job has ended, however it ended. */
  readonly ended: Promise<void>
  private markEnded: () => void = () => {}
  private readonly startEvent: JobEvent
  private state: JobEvent | undefined
  private resultEvent: JobEvent | undefined
  /** The run's result, published with the ingest figures once the job has ended (publishResult). */
  private pendingResult: Record<string, unknown> | undefined
  private endEvent: JobEvent | undefined
  private readonly listeners = new Set<(event: JobEvent) => void>()

  constructor(
    readonly mode: JobMode,
    readonly method: IndexMethod | undefined,
    readonly ingest?: IngestOrigin,
  ) {
    this.ended = new Promise((resolve) => (this.markEnded = resolve))
    this.startEvent = {
      event: 'start',
      data: { job: this.id, mode, method: method ?? null, started_at: new Date().toISOString() },
    }
  }

  /** What a client connecting now is sent first: start, the current state, and the outcome when there is one. */
  snapshot(): JobEvent[] {
    return [this.startEvent, this.state, this.resultEvent, this.endEvent].filter((e): e is JobEvent => e !== undefined)
  }

  /** The snapshot, then live events until the job ends. */
  async *follow(signal: AbortSignal): AsyncGenerator<JobEvent> {
    const queue = this.snapshot()
    let wake: (() => void) | undefined
    const listener = (event: JobEvent) => {
      queue.push(event)
      wake?.()
    }
    const onAbort = () => wake?.()
    this.listeners.add(listener)
    signal.addEventListener('abort', onAbort)
    try {
      while (!signal.aborted) {
        const next = queue.shift()
        if (next !== undefined) {
          yield next
          if (next === this.endEvent) return
        } else {
          await new Promise<void>((resolve) => (wake = resolve))
          wake = undefined
        }
      }
    } finally {
      this.listeners.delete(listener)
      signal.removeEventListener('abort', onAbort)
    }
  }

  progress(data: Record<string, unknown>): void {
    this.emit((this.state = { data }))
  }

  result(info: PipelineEndInfo): void {
    const data = {
      up_to_date: false,
      seconds: info.seconds,
      tables: info.tables,
      usage: info.usage,
      usage_by_model: info.usageByModel,
      vector_store: info.vectorStore ?? null,
    }
    this.pendingResult = data
  }

  upToDate(changes: DocumentChanges): void {
    this.pendingResult = { up_to_date: true, changes }
  }

  /**
   * Sends the result event: ours at the top level and, for the seed design's clients, the same
   * under `result` with `stage: "result"`. An ingest job adds its figures first.
   */
  async publishResult(): Promise<void> {
    if (this.pendingResult === undefined) return
    const figures = this.ingest === undefined ? {} : await this.ingest.figures()
    const result = { ...this.pendingResult, ...figures }
    // The design's relations-only stream closes its stages with the counts before the result.
    if (this.ingest?.patch !== undefined) this.progress({ ...figures, stage: 'relation_incremental_done' })
    this.emit((this.resultEvent = { event: 'result', data: { ...result, stage: 'result', result } }))
  }

  end(error: unknown): void {
    this.status = error === undefined ? 'done' : 'error'
    this.emit(
      (this.endEvent = {
        data: error === undefined ? { stage: 'done' } : { stage: 'error', error: publicMessage(error) },
      }),
    )
    this.markEnded()
  }

  /** Ended by stop(): the previous index is still the published one; the work folder's stats.json says interrupted. */
  interrupted(): void {
    this.status = 'interrupted'
    this.emit(
      (this.endEvent = {
        data: { stage: 'interrupted', detail: 'stopped before it finished; the previous index is still served' },
      }),
    )
    this.markEnded()
  }

  private emit(event: JobEvent): void {
    for (const listener of this.listeners) listener(event)
  }
}

/** Our own errors say what went wrong without secrets; anything else is a bug, described without its details. */
export function publicMessage(error: unknown): string {
  return error instanceof GraphragError ? maskUrlSecrets(error.message) : 'internal error (see the server log)'
}

export class IndexJobs {
  private current: IndexJob | undefined
  private readonly jobs = new Map<string, IndexJob>()

  constructor(
    private readonly project: Project,
    private readonly onFinished: (job: IndexJob) => void,
    /** The server log: a line when a job starts and when it ends. */
    private readonly log: (line: string) => void = () => {},
  ) {}

  running(): IndexJob | undefined {
    return this.current
  }

  /** The most recently started job. */
  last(): IndexJob | undefined {
    return [...this.jobs.values()].at(-1)
  }

  get(id: string): IndexJob | undefined {
    return this.jobs.get(id)
  }

  /** The latest ingest job that read `path` (as asked, or its real path), of `mode` when given. */
  ingestOf(path: string, mode?: JobMode): IndexJob | undefined {
    return [...this.jobs.values()]
      .reverse()
      .find((job) => job.ingest?.paths.includes(path) === true && (mode === undefined || job.mode === mode))
  }

  /** Starts a run in the background; throws a 409 while another runs. */
  start(mode: JobMode, method: IndexMethod | undefined, ingest?: IngestOrigin): IndexJob {
    if (this.current !== undefined)
      throw new RequestError(409, `an index job is already running (job ${this.current.id})`)
    const job = new IndexJob(mode, method, ingest)
    this.jobs.set(job.id, job)
    this.current = job
    this.log(`job ${job.id} started: ${mode}${method === undefined ? '' : ` (method ${method})`}`)
    const options = {
      root: this.project.root,
      configFile: this.project.configFile,
      env:
        ingest?.overrides === undefined
          ? this.project.env
          : { ...(this.project.env ?? process.env), ...ingest.overrides },
      method,
      reporter: jobReporter(job),
      interrupt: job.interruption,
      signal: job.interruption.signal,
      command: `graphrag serve (${mode} job)`,
    }
    // update with no changed documents runs no pipeline: its result says so instead of the run's stats.
    const run =
      mode === 'update'
        ? runUpdate(options).then((r) => r.upToDate && job.upToDate(r.changes))
        : runIndex(mode === 'relations' ? { ...options, rerunFrom: 'create_chunk_graph' as const } : options)
    run.then(
      () => this.finish(job, undefined),
      (error: unknown) => this.finish(job, error ?? new Error('index run failed')),
    )
    return job
  }

  /** Stops the running job, if any, and waits until it has ended (SIGTERM / Ctrl-C on `serve`). */
  async stop(): Promise<void> {
    const job = this.current
    if (job === undefined) return
    job.interruption.request()
    await job.ended
  }

  private async finish(job: IndexJob, error: unknown): Promise<void> {
    if (error !== undefined && job.interruption.requested) {
      try {
        // Calls already sent finish (and are cached) first, so the next run does not pay for them again.
        await job.interruption.drain(STOP_GRACE_MS)
        const { settings } = loadConfig(this.project)
        // The stopped run's stats.json is in its work folder: output/ still holds the last complete index.
        await recordInterruption(generationPaths(settings.output_storage.base_dir).work)
      } catch (cause) {
        console.error(cause)
      }
      this.current = undefined
      job.interrupted()
    } else {
      if (error === undefined) error = await job.publishResult().catch((failure: unknown) => failure)
      this.current = undefined
      job.end(error)
    }
    this.log(jobEndLine(job, error))
    this.onFinished(job)
  }
}

function jobEndLine(job: IndexJob, error: unknown): string {
  const seconds = `${((Date.now() - job.startedAt) / 1000).toFixed(1)} s`
  if (job.status === 'interrupted') return `job ${job.id} interrupted after ${seconds}`
  return error === undefined
    ? `job ${job.id} done in ${seconds}`
    : `job ${job.id} failed after ${seconds}: ${publicMessage(error)}`
}

/** Reporter events as `{stage, detail, current, total}` (the same events the progress display shows). */
function jobReporter(job: IndexJob): Reporter {
  let workflows: readonly string[] = []
  const position = (name: string) => workflows.indexOf(name)
  return {
    pipelineStart(names, resumed) {
      workflows = names
      const detail =
        resumed.length > 0 ? `${names.length} workflows, ${resumed.length} resumed` : `${names.length} workflows`
      job.progress({ stage: 'pipeline', detail, current: resumed.length, total: names.length })
    },
    workflowStart: (name) =>
      job.progress({ stage: name, detail: 'started', current: position(name), total: workflows.length }),
    progress: (workflow, label, done, total) => job.progress({ stage: workflow, detail: label, current: done, total }),
    workflowEnd: (name, info) =>
      job.progress({
        stage: name,
        detail: info.skipped ? 'skipped' : `finished in ${info.seconds.toFixed(1)} s`,
        current: position(name) + 1,
        total: workflows.length,
      }),
    workflowFailed: (name, message) =>
      job.progress({ stage: name, detail: `failed: ${message}`, current: position(name) + 1, total: workflows.length }),
    warning: (message) => job.progress({ stage: 'warning', detail: message, current: 0, total: 0 }),
    pipelineEnd: (info) => job.result(info),
  }
}
