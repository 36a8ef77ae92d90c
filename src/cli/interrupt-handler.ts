/**
 * Ctrl-C / SIGTERM for `graphrag index` and `graphrag update`: the first asks the run to stop (no new model calls, the
 * ones in flight get a grace period so they are cached), the second exits at once. Tracks progress
 * so the closing line can say how far the run got.
 */
import { Interruption } from '../index/run/interrupt.js'
import type { Reporter } from '../index/run/reporter.js'
import { stopWatchingStartupSignals } from './startup-interrupt.js'

/** How long calls already sent may take to finish (and be cached) after Ctrl-C. */
export const GRACE_MS = 5000

export interface InterruptibleReporter extends Reporter {
  /** Ends the current workflow's display without calling it failed. */
  workflowInterrupted?(name: string): void
}

export interface InterruptHandler {
  interruption: Interruption
  reporter: Reporter
  /** "interrupted: N of M items done; run the same command to resume" (`resume`: the part after the semicolon). */
  summary(resume?: string): string
  dispose(): void
}

export function handleInterrupts(
  inner: InterruptibleReporter,
  exit: (code: number) => never = process.exit,
): InterruptHandler {
  const interruption = new Interruption()
  // Per running workflow: several run side by side.
  const progress = new Map<string, { workflow: string; label: string; done: number; total: number }>()
  let workflows = 0
  let finished = 0
  const onSignal = () => {
    // A second Ctrl-C: the user does not want to wait for the calls in flight.
    if (interruption.requested) exit(130)
    interruption.request()
  }
  // From here the run records an interruption itself (until now startup-interrupt.ts did).
  stopWatchingStartupSignals()
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)
  const reporter: Reporter = {
    pipelineStart: (names, resumed, rerun) => {
      workflows = names.length
      finished = resumed.length
      inner.pipelineStart(names, resumed, rerun)
    },
    workflowStart: (name) => {
      progress.delete(name)
      inner.workflowStart(name)
    },
    progress: (workflow, label, done, total) => {
      progress.set(workflow, { workflow, label, done, total })
      inner.progress(workflow, label, done, total)
    },
    workflowEnd: (name, info) => {
      progress.delete(name)
      finished += 1
      inner.workflowEnd(name, info)
    },
    workflowFailed: (name, message) => {
      if (interruption.requested && inner.workflowInterrupted !== undefined) inner.workflowInterrupted(name)
      else inner.workflowFailed(name, message)
    },
    warning: (message) => inner.warning(message),
    pipelineEnd: (info) => inner.pipelineEnd(info),
    watch: (source) => inner.watch?.(source),
  }
  return {
    interruption,
    reporter,
    summary: (resume = 'run the same command to resume') => {
      const items = [...progress.values()].map((p) => `${p.done} of ${p.total} items done (${p.workflow}: ${p.label})`)
      const done = items.length === 0 ? `${finished} of ${workflows} workflows done` : items.join(', ')
      return `interrupted: ${done}; ${resume}`
    },
    dispose: () => {
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    },
  }
}
