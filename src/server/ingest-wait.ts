/**
 * POST /ingest?progress=true (or ?wait=true) answers when the job has ended, as the seed design's
 * synchronous ingest does: the result's fields at the top level, and with progress the job's events
 * (under the design's stage names) as `progress`. A failed job answers 500 with its error.
 *
 * The design's list grows with the run (an event per batch of a long document); ours keeps the first
 * events and the latest ones, at most PROGRESS_LIMIT in all, and says what it left out:
 * `progress_truncated: true` and `progress_omitted` (the count), with the total in `progress_events`.
 */
import type { IndexJob } from './index-jobs.js'
import { seedStages } from './seed-stages.js'

type Status = 200 | 500

/** Events kept in the answer's `progress`: the first PROGRESS_HEAD and the latest others. */
export const PROGRESS_LIMIT = 200
const PROGRESS_HEAD = 20

/** The first `head` items and the latest `limit - head`, counting what falls between. */
class BoundedEvents<T> {
  private readonly first: T[] = []
  private readonly latest: T[] = []
  private total = 0

  constructor(
    private readonly limit: number,
    private readonly head: number,
  ) {}

  push(item: T): void {
    this.total++
    if (this.first.length < this.head) this.first.push(item)
    else {
      this.latest.push(item)
      if (this.latest.length > this.limit - this.head) this.latest.shift()
    }
  }

  /** The kept items in order, and the figures of what was left out (none when nothing was). */
  fields(): Record<string, unknown> {
    const progress = [...this.first, ...this.latest]
    const omitted = this.total - progress.length
    if (omitted === 0) return { progress }
    return { progress, progress_truncated: true, progress_omitted: omitted, progress_events: this.total }
  }
}

export async function awaitIngest(
  job: IndexJob,
  withProgress: boolean,
  signal: AbortSignal,
  limit = PROGRESS_LIMIT,
): Promise<{ status: Status; body: Record<string, unknown> }> {
  const progress = new BoundedEvents<Record<string, unknown>>(limit, Math.min(PROGRESS_HEAD, Math.floor(limit / 2)))
  const shape = seedStages(job.ingest?.patch)
  let result: Record<string, unknown> = {}
  let end: Record<string, unknown> = {}
  for await (const event of job.follow(signal)) {
    if (event.event === 'start') continue
    if (event.event === 'result') result = event.data.result as Record<string, unknown>
    else if (event.data.stage === 'done' || event.data.stage === 'error' || event.data.stage === 'interrupted')
      end = event.data
    else for (const shaped of shape(event.data)) progress.push(shaped)
  }
  const extra = withProgress ? progress.fields() : {}
  if (end.stage === 'done') return { status: 200, body: { ...result, ...extra } }
  const message = typeof end.error === 'string' ? end.error : String(end.detail ?? 'the ingest job did not finish')
  return { status: 500, body: { error: { message, type: 'ingest_failed' }, ...extra } }
}
