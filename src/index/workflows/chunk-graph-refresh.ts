/**
 * create_chunk_graph narrowed to some documents' typed edges (chunk_graph.refresh_documents, set by
 * `graphrag refresh-relations --source` and by the relations-only ingest): the plan of batches and
 * the typed edges of the current index that the run keeps (operations/chunk-graph/refresh.ts).
 */
import { ConfigError } from '../../errors.js'
import { CHUNK_EDGES } from '../../model/chunk-edges.js'
import type { ChunkGraphOptions } from '../operations/chunk-graph/build.js'
import { keptTypedEdges, refreshPlan } from '../operations/chunk-graph/refresh.js'
import type { ChunkUnit } from '../operations/chunk-graph/types.js'
import type { WorkflowContext } from '../workflow.js'
import { documentScope } from './chunk-graph-scope.js'

export async function refreshOption(
  ctx: WorkflowContext,
  units: readonly ChunkUnit[],
): Promise<ChunkGraphOptions['refresh']> {
  const s = ctx.settings.chunk_graph
  if (s.refresh_documents === null) {
    if (s.refresh_new_units > 0)
      throw new ConfigError(
        'chunk_graph.refresh_new_units: needs chunk_graph.refresh_documents (the documents whose units are new)',
      )
    return undefined
  }
  const documents = (await documentScope(ctx, s.refresh_documents, 'chunk_graph.refresh_documents'))!
  const plan = refreshPlan(units, {
    documents,
    newUnits: s.refresh_new_units,
    batchSize: s.batch_size,
    batchOverlap: s.batch_overlap,
  })
  const previous = (await ctx.tables.has(CHUNK_EDGES.name)) ? await ctx.tables.read(CHUNK_EDGES) : []
  return { plan, kept: keptTypedEdges(previous, plan, new Set(units.map((u) => u.id))) }
}

/** One narrowed run's chunk_graph keys (document ids or titles, new units, batch size, cut, temperature). */
export interface RefreshRun {
  documents?: readonly string[]
  newUnits?: number
  window?: number
  truncateTokens?: number
  temperature?: number
  /** Turn the typed edges on for the run (the relations-only ingest asks for them whatever the settings say). */
  llmEdges?: boolean
}

/** The run's keys as GRAPHRAG_CHUNK_GRAPH__… variables, the way `serve` jobs and the CLI pass settings for one run. */
export function refreshEnv(run: RefreshRun): Record<string, string> {
  const env: Record<string, string> = {}
  const set = (key: string, value: unknown) => {
    if (value !== undefined)
      env[`GRAPHRAG_CHUNK_GRAPH__${key}`] = typeof value === 'string' ? value : JSON.stringify(value)
  }
  set('REFRESH_DOCUMENTS', run.documents)
  set('REFRESH_NEW_UNITS', run.newUnits)
  set('BATCH_SIZE', run.window)
  set('RELATION_UNIT_MAX_TOKENS', run.truncateTokens)
  set('RELATION_TEMPERATURE', run.temperature)
  set('LLM_EDGES', run.llmEdges)
  return env
}
