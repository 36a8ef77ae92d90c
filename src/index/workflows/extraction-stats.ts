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
  /** The text unit of each reply still blank after its retries, read as no records. */
  emptyReplies?: readonly string[]
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
  recordEmptyReplies(ctx, workflow, outcome)
  ctx.stats.count('retried_replies', retried.length)
  ctx.stats.count('extraction_calls', outcome.calls)
  ctx.stats.count('parse_drops', outcome.dropped.length)
  ctx.stats.count('chunks_failed', outcome.failures.length)
}

/** Blank replies read as no records: each named in the log, the share on screen ("60 of 120 replies were empty"). */
function recordEmptyReplies(ctx: WorkflowContext, workflow: string, outcome: ExtractionBookkeeping): void {
  const empty = outcome.emptyReplies ?? []
  for (const unit of empty.slice(0, LOGGED_DROPS))
    ctx.log.warn(`${workflow}: ${unit}: the reply was still blank after its retries; read as no records`)
  ctx.stats.count('empty_replies', empty.length)
  if (empty.length > 0)
    ctx.stats.warning(
      `${emptyShare(empty.length, outcome.calls)} (blank after retries) and read as no records; see logs`,
    )
}

/** `60 of 120 replies were empty`. */
function emptyShare(empty: number, replies: number): string {
  return `${empty} of ${plural(replies, 'reply', 'replies')} ${empty === 1 ? 'was' : 'were'} empty`
}

/** For the end-of-run summary: one line per workflow that read blank replies as no records. */
export function emptyReplyNotes(
  workflows: Readonly<Record<string, { skipped: boolean; counters: Record<string, number> }>>,
): string[] {
  return Object.entries(workflows).flatMap(([name, w]) => {
    const empty = w.counters.empty_replies ?? 0
    if (w.skipped || empty === 0) return []
    return [`${name}: ${emptyShare(empty, w.counters.extraction_calls ?? empty)}, read as no records`]
  })
}
