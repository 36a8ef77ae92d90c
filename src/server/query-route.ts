/** POST /query: the JSON of `query --json`, or with stream: true an SSE stream of chunks and then the result. */
import type { Context } from 'hono'
import { streamSSE } from 'hono/streaming'
import { publicMessage } from './index-jobs.js'
import type { QueryService } from './query-service.js'
import { queryRequest, type QueryBody } from './requests.js'

export async function answerQuery(c: Context, queries: QueryService, body: QueryBody): Promise<Response> {
  const request = queryRequest(body)
  const { key, answer: cached } = queries.cached(request)
  c.header('X-Graphrag-Cache', cached === undefined ? 'miss' : 'hit')
  if (!request.stream) return c.json((cached ?? (await queries.run(request, key, c.req.raw.signal))).json)
  return streamSSE(c, async (stream) => {
    // A client that goes away cancels the search's model calls.
    const controller = new AbortController()
    stream.onAbort(() => controller.abort(new Error('client disconnected')))
    try {
      const answer =
        cached ??
        (await queries.run(request, key, controller.signal, (chunk) =>
          stream.writeSSE({ data: JSON.stringify({ chunk }) }),
        ))
      if (cached !== undefined) await stream.writeSSE({ data: JSON.stringify({ chunk: cached.response }) })
      await stream.writeSSE({ event: 'result', data: JSON.stringify(answer.json) })
    } catch (error) {
      if (!controller.signal.aborted)
        await stream.writeSSE({ event: 'error', data: JSON.stringify({ error: publicMessage(error) }) })
    }
  })
}
