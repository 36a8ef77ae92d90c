/** GET /index/stream?job=: a job's events as SSE; a late client gets start and the current state first. */
import type { Context, Hono } from 'hono'
import { streamSSE } from 'hono/streaming'
import { RequestError } from '../errors.js'
import type { IndexJob, IndexJobs } from './index-jobs.js'

export function registerIndexStream(app: Hono, jobs: IndexJobs): void {
  app.get('/index/stream', (c) => streamJob(c, jobs))
}

/** The events of `?job=` (default: the running job, else the last one) until it ends. */
function streamJob(c: Context, jobs: IndexJobs): Response {
  const id = c.req.query('job')
  const job = id === undefined ? (jobs.running() ?? jobs.last()) : jobs.get(id)
  if (job === undefined)
    throw new RequestError(404, id === undefined ? 'job: no index job has been started' : `job: no index job ${id}`)
  return streamEvents(c, job)
}

/** `job`'s events as SSE until it ends, each event's data through `shape` (the ingest stream's stage names: one or more events each). */
export function streamEvents(
  c: Context,
  job: IndexJob,
  shape: (data: Record<string, unknown>) => Array<Record<string, unknown>> = (data) => [data],
): Response {
  return streamSSE(c, async (stream) => {
    const controller = new AbortController()
    stream.onAbort(() => controller.abort())
    for await (const event of job.follow(controller.signal)) {
      // The start and result events are ours whole; progress events may become several of the design's.
      const shaped = event.event === undefined ? shape(event.data) : [event.data]
      for (const data of shaped)
        await stream.writeSSE({
          ...(event.event === undefined ? {} : { event: event.event }),
          data: JSON.stringify(data),
        })
    }
  })
}
