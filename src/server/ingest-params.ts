/**
 * The seed design's query parameters of POST /ingest and GET /ingest/stream, read strictly (true /
 * false / 1 / 0; anything else is a 400 naming the parameter).
 *
 *   incremental        update the index (true) or index everything again (false); default: the body's
 *                      `incremental`, else server.ingest_incremental
 *   refresh            rebuild entities and relationships of every chunk: a full index run (default false)
 *   refresh_relations  with refresh, ask the model for the chunk graph's typed relations too (default true;
 *                      false runs the refresh with chunk_graph.llm_edges off: the design's "rebuild the
 *                      entity and basic graph only"; entities and their relationships are one extraction)
 *   progress           wait for the job and answer with its result and its progress events (default false)
 *   wait               wait for the job and answer with its result (ours; progress implies it)
 *   checkpoint         resume from what earlier runs finished (default true: the model-reply cache and the
 *                      runner's resume do it; false is refused, cache.type: none is the way)
 */
import type { Context } from 'hono'
import { RequestError } from '../errors.js'

export interface IngestQuery {
  incremental: boolean | undefined
  refresh: boolean
  /** false: the refresh runs without the chunk graph's model-made relations (refresh_relations=false). */
  relations: boolean
  progress: boolean
  wait: boolean
}

function flag(c: Context, name: string): boolean | undefined {
  const text = c.req.query(name)
  if (text === undefined) return undefined
  if (/^(true|1)$/i.test(text)) return true
  if (/^(false|0)$/i.test(text)) return false
  throw new RequestError(400, `${name}: expected true or false, got ${JSON.stringify(text)}`)
}

function checkpoint(c: Context): void {
  if (flag(c, 'checkpoint') === false)
    throw new RequestError(
      400,
      'checkpoint: false is not supported: finished work is kept by the model-reply cache and the runner (set cache.type: none to redo model calls)',
    )
}

export function ingestQuery(c: Context): IngestQuery {
  const refresh = flag(c, 'refresh') ?? false
  const relations = flag(c, 'refresh_relations') ?? true
  if (!refresh && !relations) throw new RequestError(400, 'refresh_relations: false applies only with refresh=true')
  checkpoint(c)
  const progress = flag(c, 'progress') ?? false
  return {
    incremental: flag(c, 'incremental'),
    refresh,
    relations,
    progress,
    wait: progress || (flag(c, 'wait') ?? false),
  }
}

/** GET /ingest/stream: `job=<id>`, or `path=` as given to POST /ingest (never "the last job"). */
export function streamQuery(c: Context): { job: string; path?: undefined } | { job?: undefined; path: string } {
  checkpoint(c)
  const job = c.req.query('job')
  if (job !== undefined) return { job }
  const path = c.req.query('path')
  if (path === undefined || path.trim() === '')
    throw new RequestError(400, 'path: required (the path given to POST /ingest), or job=<id>')
  return { path }
}
