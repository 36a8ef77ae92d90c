/** What the runner tells the outside world; the CLI renders it, tests record it. */
import type { BatchStats } from './run-stats.js'
import type { ModelUsage } from '../../llm/types.js'
import type { ModelUsageLine } from './usage-by-model.js'

export interface WorkflowEndInfo {
  seconds: number
  rows: Readonly<Record<string, number>>
  skipped: boolean
  failures: number
}

export interface PipelineEndInfo {
  seconds: number
  outputDir: string
  tables: ReadonlyArray<{ name: string; rows: number }>
  usage: ModelUsage
  /** Per configured model, in the order they were first used. */
  usageByModel: readonly ModelUsageLine[]
  vectorStore: string | undefined
  /** What the run tolerated, one line each (blank model replies read as no records). */
  notes?: readonly string[]
  /** Batch mode: batches, lines and the discount. */
  batch?: BatchStats
  /** Per workflow (in the order they first called a model), summed over its models. */
  usageByWorkflow?: ReadonlyArray<{ workflow: string; usage: ModelUsage }>
}

/** Model calls of a workflow right now, for the progress line: retries so far and calls that take long. */
export interface LiveStatus {
  retries: number
  /** Calls in flight for 10 s or more. */
  waitingCalls: number
  longestWaitSeconds: number
  /** Pooled models only: "endpoints 2/3 up (a:41 b:40 c:12 calls)". */
  endpoints?: string
  /** Batch mode: "batches 3 submitted, 1 in progress, 2 done, 80/120 lines answered". */
  batches?: string
  /** Object storage: requests to the store sent again since the run began. */
  storeRetries?: number
}

/** The first workflow that runs again because of its own failed items last time. */
export interface RerunInfo {
  workflow: string
  reason: string
}

export interface Reporter {
  pipelineStart(workflows: readonly string[], resumed: readonly string[], rerun: RerunInfo | undefined): void
  workflowStart(name: string): void
  progress(workflow: string, label: string, done: number, total: number): void
  workflowEnd(name: string, info: WorkflowEndInfo): void
  workflowFailed(name: string, message: string): void
  warning(message: string): void
  pipelineEnd(info: PipelineEndInfo): void
  /** Gives the reporter a way to ask for the live model status of a workflow (retries, hanging calls). */
  watch?(source: (workflow: string) => LiveStatus): void
}

export const SILENT_REPORTER: Reporter = {
  pipelineStart() {},
  workflowStart() {},
  progress() {},
  workflowEnd() {},
  workflowFailed() {},
  warning() {},
  pipelineEnd() {},
}

/** Keeps every event, for tests and library callers that want to inspect a run. */
export class RecordingReporter implements Reporter {
  readonly events: Array<{ type: string; [key: string]: unknown }> = []
  pipelineStart(workflows: readonly string[], resumed: readonly string[], rerun: RerunInfo | undefined): void {
    this.events.push({ type: 'pipelineStart', workflows, resumed, rerun })
  }
  workflowStart(name: string): void {
    this.events.push({ type: 'workflowStart', name })
  }
  progress(workflow: string, label: string, done: number, total: number): void {
    this.events.push({ type: 'progress', workflow, label, done, total })
  }
  workflowEnd(name: string, info: WorkflowEndInfo): void {
    this.events.push({ type: 'workflowEnd', name, ...info })
  }
  workflowFailed(name: string, message: string): void {
    this.events.push({ type: 'workflowFailed', name, message })
  }
  warning(message: string): void {
    this.events.push({ type: 'warning', message })
  }
  pipelineEnd(info: PipelineEndInfo): void {
    this.events.push({ type: 'pipelineEnd', ...info })
  }
}
