/** What both extraction workflows record after their per-unit calls: failed units, dropped records, counters. */
import { plural } from '../operations/extractive-report/text.js'
import type { WorkflowContext } from '../workflow.js'

export interface ExtractionBookkeeping {
  failures: ReadonlyArray<{ textUnitId: string; reason: string }>
  dropped: ReadonlyArray<{ reason: string; text: string }>
  calls: number
  /** Replies holding at least one unreadable record, when known. */
  unreadableReplies?: number
  /** Relationships kept with weight 1 because no strength could be read. */
  defaultedWeights?: number
  /** Their records as written. */
  weightless?: readonly string[]
  /** First replies that were unusable and asked again once. */
  retriedReplies?: ReadonlyArray<{ textUnitId: string; problem: string }>
}

/** Beyond this many, unreadable records are counted in the log rather than each quoted. */
const LOGGED_DROPS = 200

export function recordExtraction(
  ctx: WorkflowContext,
  workflow: string,
  outcome: ExtractionBookkeeping,
  recordNoun: string,
): void {
  for (const f of outcome.failures) ctx.stats.failure(f.textUnitId, f.reason)
  if (outcome.failures.length > 0)
    ctx.stats.warning(
      `${plural(outcome.failures.length, 'text unit')} lost (${outcome.failures
        .slice(0, 3)
        .map((f) => f.textUnitId.slice(0, 12))
        .join(
          ', ',
        )}${outcome.failures.length > 3 ? ', …' : ''}); each is listed with its reason in stats.json and the log`,
    )
  // Every record the model wrote but we could not use is named in the log and summed up on screen.
  for (const d of outcome.dropped.slice(0, LOGGED_DROPS))
    ctx.log.warn(`${workflow}: unreadable ${recordNoun} (${d.reason}): ${d.text.slice(0, 300)}`)
  if (outcome.dropped.length > LOGGED_DROPS)
    ctx.log.warn(`${workflow}: ${outcome.dropped.length - LOGGED_DROPS} more unreadable records not quoted`)
  if (outcome.dropped.length > 0) {
    const replies =
      outcome.unreadableReplies === undefined ? '' : ` in ${plural(outcome.unreadableReplies, 'reply', 'replies')}`
    ctx.stats.warning(`${plural(outcome.dropped.length, 'record', 'records')} unreadable${replies}; see logs`)
  }
  const defaulted = outcome.defaultedWeights ?? 0
  for (const record of (outcome.weightless ?? []).slice(0, LOGGED_DROPS))
    ctx.log.warn(`${workflow}: relationship kept with weight 1, no readable strength: ${record.slice(0, 300)}`)
  if (defaulted > 0)
    ctx.stats.warning(
      `${plural(defaulted, 'relationship', 'relationships')} without a readable strength kept with weight 1; see logs`,
    )
  const retried = outcome.retriedReplies ?? []
  for (const r of retried) ctx.log.warn(`${workflow}: ${r.textUnitId}: unusable reply asked again: ${r.problem}`)
  if (retried.length > 0)
    ctx.stats.warning(
      `${plural(retried.length, 'reply was', 'replies were')} unusable (refusal, non-answer or echo) and asked again once; see logs`,
    )
  ctx.stats.count('retried_replies', retried.length)
  ctx.stats.count('extraction_calls', outcome.calls)
  ctx.stats.count('parse_drops', outcome.dropped.length)
  ctx.stats.count('chunks_failed', outcome.failures.length)
}
