/**
 * POST /ingest?progress=true (or ?wait=true) answers when the job has ended, as the seed design's
 * synchronous ingest does: the result's fields at the top level, and with progress the job's events
 * (under the design's stage names) as `progress`. A failed job answers 500 with its error.
 */
import type { IndexJob } from './index-jobs.js'
import { seedStageEvent } from './seed-stages.js'

type Status = 200 | 500

export async function awaitIngest(
  job: IndexJob,
  withProgress: boolean,
  signal: AbortSignal,
): Promise<{ status: Status; body: Record<string, unknown> }> {
  const progress: Record<string, unknown>[] = []
  let result: Record<string, unknown> = {}
  let end: Record<string, unknown> = {}
  for await (const event of job.follow(signal)) {
    if (event.event === 'start') continue
    if (event.event === 'result') result = event.data.result as Record<string, unknown>
    else if (event.data.stage === 'done' || event.data.stage === 'error' || event.data.stage === 'interrupted')
      end = event.data
    else progress.push(seedStageEvent(event.data))
  }
  const extra = withProgress ? { progress } : {}
  if (end.stage === 'done') return { status: 200, body: { ...result, ...extra } }
  const message = typeof end.error === 'string' ? end.error : String(end.detail ?? 'the ingest job did not finish')
  return { status: 500, body: { error: { message, type: 'ingest_failed' }, ...extra } }
}
