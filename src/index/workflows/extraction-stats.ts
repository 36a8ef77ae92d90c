/** What both extraction workflows record after their per-unit calls: failed units, dropped records, counters. */
import type { WorkflowContext } from '../workflow.js'

export interface ExtractionBookkeeping {
  failures: ReadonlyArray<{ textUnitId: string; reason: string }>
  dropped: ReadonlyArray<{ reason: string; text: string }>
  calls: number
}

const LOGGED_DROPS = 20

export function recordExtraction(
  ctx: WorkflowContext,
  workflow: string,
  outcome: ExtractionBookkeeping,
  recordNoun: string,
): void {
  for (const f of outcome.failures) ctx.stats.failure(f.textUnitId, f.reason)
  for (const d of outcome.dropped.slice(0, LOGGED_DROPS))
    ctx.log.debug(`${workflow}: dropped ${recordNoun} (${d.reason}): ${d.text.slice(0, 200)}`)
  ctx.stats.count('extraction_calls', outcome.calls)
  ctx.stats.count('parse_drops', outcome.dropped.length)
  ctx.stats.count('chunks_failed', outcome.failures.length)
}
