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

/**
 * GET /ingest/stream: `job=<id>`, or `path=` as given to POST /ingest (never "the last job");
 * with `inc_rel_only=true` the latest relations-only job of that path (its other parameters are
 * POST /ingest's: a GET starts nothing).
 */
export function streamQuery(
  c: Context,
):
  | { job: string; path?: undefined; relationsOnly: boolean }
  | { job?: undefined; path: string; relationsOnly: boolean } {
  checkpoint(c)
  const relationsOnly = flag(c, 'inc_rel_only') ?? false
  const job = c.req.query('job')
  if (job !== undefined) return { job, relationsOnly }
  const path = c.req.query('path')
  if (path === undefined || path.trim() === '')
    throw new RequestError(400, 'path: required (the path given to POST /ingest), or job=<id>')
  return { path, relationsOnly }
}

/**
 * The seed design's relations-only incremental mode (`inc_rel_only=true`): typed chunk-graph edges
 * sought for the new text units of one ingested file only. The boundary is `new_after` (the last old
 * text unit: its id or human_readable_id) or `detect_after=true&new_count=N` (the last N units are
 * new); `rel_window` is the batch size (default chunk_graph.batch_size), `rel_truncate` the characters
 * of each unit shown (as tokens: 4 characters a token, chunk_graph.relation_unit_max_tokens),
 * `rel_temperature` the calls' temperature. Undefined without inc_rel_only; its parameters without
 * it are a 400.
 */
export interface RelationsOnlyQuery {
  boundary: { after: string } | { count: number }
  window: number | undefined
  truncateChars: number | undefined
  temperature: number | undefined
}

const RELATIONS_ONLY_PARAMS = [
  'new_after',
  'detect_after',
  'new_count',
  'rel_window',
  'rel_truncate',
  'rel_temperature',
]

/** Every query parameter POST /ingest reads (the OpenAPI document must list each). */
export const INGEST_QUERY_PARAMETERS = [
  'incremental',
  'refresh',
  'refresh_relations',
  'progress',
  'wait',
  'checkpoint',
  'inc_rel_only',
  ...RELATIONS_ONLY_PARAMS,
]

function numberParam(c: Context, name: string, integer: boolean, min: number, max: number): number | undefined {
  const text = c.req.query(name)
  if (text === undefined) return undefined
  const value = text.trim() === '' ? Number.NaN : Number(text)
  if (!Number.isFinite(value) || value < min || value > max || (integer && !Number.isInteger(value)))
    throw new RequestError(
      400,
      `${name}: expected ${integer ? 'a whole number' : 'a number'} from ${min} to ${max}, got ${JSON.stringify(text)}`,
    )
  return value
}

export function relationsOnlyQuery(c: Context): RelationsOnlyQuery | undefined {
  if (flag(c, 'inc_rel_only') !== true) {
    const stray = RELATIONS_ONLY_PARAMS.find((name) => c.req.query(name) !== undefined)
    if (stray !== undefined) throw new RequestError(400, `${stray}: applies only with inc_rel_only=true`)
    return undefined
  }
  for (const name of ['refresh', 'incremental'])
    if (c.req.query(name) !== undefined)
      throw new RequestError(400, `${name}: not with inc_rel_only=true (it indexes nothing, it adds relations)`)
  const after = c.req.query('new_after')
  const detect = flag(c, 'detect_after') ?? false
  const count = numberParam(c, 'new_count', true, 1, 1_000_000_000)
  if (after !== undefined && detect) throw new RequestError(400, 'new_after: give it or detect_after=true, not both')
  if (count !== undefined && !detect) throw new RequestError(400, 'new_count: applies only with detect_after=true')
  if (detect && count === undefined) throw new RequestError(400, 'new_count: required with detect_after=true')
  if (after === undefined && !detect)
    throw new RequestError(400, 'new_after: required with inc_rel_only=true (or detect_after=true&new_count=N)')
  if (after !== undefined && after.trim() === '') throw new RequestError(400, 'new_after: expected a text unit id')
  return {
    boundary: after !== undefined ? { after } : { count: count! },
    window: numberParam(c, 'rel_window', true, 2, 1_000_000),
    truncateChars: numberParam(c, 'rel_truncate', true, 0, 40_000_000),
    temperature: numberParam(c, 'rel_temperature', false, 0, 2),
  }
}
