/**
 * Workflow create_chunk_graph (ours, not in Microsoft GraphRAG): typed edges between text units,
 * written to chunk_edges.parquet for graph search. It runs last in both methods: shared-entity
 * edges need the final text units' entity_ids, and cross-document edges read the text_unit_text
 * vectors generate_text_embeddings has just written (no second embedding pass).
 */
import type { Settings } from '../../config/schema.js'
import { CHUNK_EDGES } from '../../model/chunk-edges.js'
import { ENTITIES } from '../../model/entities.js'
import { BASE_TEXT_UNITS, TEXT_UNITS } from '../../model/text-units.js'
import { openVectorStore } from '../../storage/vector-store.js'
import { refreshOption } from './chunk-graph-refresh.js'
import { chunkGraphFingerprint, documentScope } from './chunk-graph-scope.js'
import { llmWindows } from '../operations/chunk-graph/batches.js'
import { buildChunkGraph, type ChunkGraphResult, type RelationCallOptions } from '../operations/chunk-graph/build.js'
import { llmEdges } from '../operations/chunk-graph/llm-edges.js'
import { createFinalTextUnits } from '../operations/create-final-text-units.js'
import { chunkGraphUsage, ZERO } from '../operations/estimate-usage.js'
import { readPrompt } from '../../prompts/prompt-files.js'
import { defineWorkflow, NO_MODELS, type ProgressTicker, type PromptFile, type WorkflowContext } from '../workflow.js'

const NAME = 'create_chunk_graph'
const VECTORS = 'text_unit_text'

const usesModel = (s: Settings) => s.chunk_graph.llm_edges || s.chunk_graph.cross_document
const promptFile = (s: Settings): PromptFile => ({
  keyPath: 'chunk_graph.prompt',
  path: s.chunk_graph.prompt,
  builtin: 'chunk_graph_edges.txt',
})

async function titlesById(ctx: WorkflowContext): Promise<Map<string, string>> {
  if (!(await ctx.tables.has(ENTITIES.name))) return new Map()
  return new Map((await ctx.tables.read(ENTITIES)).map((e) => [e.id, e.title]))
}

/** The text_unit_text vectors, or undefined (with a warning) when the vector store has none. */
async function unitVectors(ctx: WorkflowContext): Promise<Map<string, Float32Array> | undefined> {
  const vs = ctx.settings.vector_store
  const table = vs.index_schema[VECTORS]?.index_name ?? VECTORS
  const store = await openVectorStore(vs.db_uri)
  try {
    if (await store.hasTable(table)) return await store.vectorsById(table)
  } finally {
    store.close()
  }
  ctx.stats.warning(
    `chunk_graph.cross_document skipped: the vector store ${vs.db_uri} has no ${table} table (add text_unit_text to embed_text.names)`,
  )
  return undefined
}

/** chunk_graph's relation-call keys as the typed-edge calls take them. */
function relationCalls(s: Settings['chunk_graph']): RelationCallOptions {
  return {
    ...(s.relation_temperature === null ? {} : { temperature: s.relation_temperature }),
    unitMaxTokens: s.relation_unit_max_tokens,
    fallbackConfidence: s.parse_fallback_confidence,
  }
}

function record(
  ctx: WorkflowContext,
  result: Pick<ChunkGraphResult, 'failures' | 'calls' | 'dropped' | 'fallbacks'>,
): void {
  for (const f of result.failures) ctx.stats.failure(f.batch, f.reason)
  ctx.stats.count('relation_parse_fallback', result.fallbacks.length)
  if (result.fallbacks.length > 0)
    ctx.stats.warning(
      `${NAME}: relation_parse_fallback: ${result.fallbacks.length} of ${result.calls} typed-edge replies could not be parsed; their units are linked by step_next edges (first: ${result.fallbacks[0]!.batch}, ${result.fallbacks[0]!.reason})`,
    )
  ctx.stats.count('llm_batches', result.calls)
  ctx.stats.count('batches_failed', result.failures.length)
  ctx.stats.count('invalid_edges', result.dropped.length)
  for (const reason of result.dropped) ctx.stats.count(`invalid_edges_${reason}`)
  if (result.failures.length > 0)
    ctx.stats.warning(
      `${NAME}: ${result.failures.length} of ${result.calls} typed-edge batches failed and were skipped`,
    )
}

/** A narrowed run's figures in the workflow summary (stats.json), where the ingest result reads them. */
function refreshSummary(refresh: ChunkGraphResult['refresh']): Record<string, number> {
  if (refresh === undefined) return {}
  const { created, skipped, pairs, old, new: added } = refresh
  return {
    refresh_created: created,
    refresh_skipped: skipped,
    refresh_pairs: pairs,
    refresh_old: old,
    refresh_new: added,
  }
}

export const createChunkGraph = defineWorkflow({
  name: NAME,
  reads: [TEXT_UNITS.name, ENTITIES.name],
  writes: [CHUNK_EDGES.name],
  readsVectorStore: true,
  fingerprint: (s) => ({
    chunk_graph: chunkGraphFingerprint(s.chunk_graph),
    // Cross-document candidates come from the text unit vectors.
    vectors: s.chunk_graph.cross_document ? { embed_text: s.embed_text, vector_store: s.vector_store } : null,
  }),
  models: (s) => (usesModel(s) ? { chat: [s.chunk_graph.completion_model_id], embedding: [] } : NO_MODELS),
  prompts: (s) => (usesModel(s) ? [promptFile(s)] : []),
  estimate: (x) =>
    usesModel(x.settings)
      ? chunkGraphUsage(x, x.promptTokens(promptFile(x.settings), { input_text: '' }), x.settings.chunk_graph)
      : ZERO,
  async run(ctx) {
    const s = ctx.settings.chunk_graph
    const units = await ctx.tables.read(TEXT_UNITS)
    const vectors = s.cross_document ? await unitVectors(ctx) : undefined
    const scope = s.cross_document ? await documentScope(ctx, s.cross_document_documents) : undefined
    const chat = usesModel(ctx.settings)
      ? ctx.models.chat(s.completion_model_id, {
          keyPath: 'chunk_graph.completion_model_id',
          cachePartition: s.model_instance_name,
        })
      : undefined
    let progress: ProgressTicker | undefined
    const options = {
      sequence: s.sequence_edges,
      sharedEntities: s.shared_entity_edges,
      minSharedEntities: s.min_shared_entities,
      cooccurrence: s.cooccurrence_edges ? { window: s.cooccurrence_window, minCount: s.cooccurrence_min_count } : null,
      llm: s.llm_edges ? { batchSize: s.batch_size, batchOverlap: s.batch_overlap } : null,
      crossDocument:
        vectors === undefined
          ? null
          : { vectors, threshold: s.cross_document_threshold, topK: s.cross_document_top_k, documents: scope },
      prompt: chat === undefined ? '' : readPrompt(promptFile(ctx.settings)),
      concurrency: s.workers,
      relationCalls: relationCalls(s),
      minEdgeWeight: s.min_edge_weight,
      maxEdgesPerChunk: s.max_edges_per_chunk,
      refresh: await refreshOption(ctx, units),
    }
    const result = await buildChunkGraph(units, await titlesById(ctx), options, {
      ...(chat === undefined ? {} : { chat }),
      signal: ctx.signal,
      onBatches: (total) => {
        if (total > 0) progress = ctx.progress('chunk graph batches', total)
      },
      onBatchDone: () => progress?.tick(),
    })
    progress?.done()
    record(ctx, result)
    await ctx.tables.write(CHUNK_EDGES, result.rows)
    const summary = {
      ...result.proposed,
      invalid_edges: result.dropped.length,
      failed_batches: result.failures.length,
      relation_parse_fallback: result.fallbacks.length,
      duplicates: result.duplicates,
      pruned: result.pruned,
      ...refreshSummary(result.refresh),
    }
    return { rows: { [CHUNK_EDGES.name]: result.rows.length }, summary }
  },
  /**
   * A shard asks the model about its slice of the typed-edge windows. The windows are cut from the
   * text units as create_final_text_units numbers them, which the prompt shows; cross-document
   * batches need the run's vectors and are left to the full run.
   */
  async prefetch(ctx, shard) {
    const s = ctx.settings.chunk_graph
    if (!s.llm_edges) return {}
    const units = createFinalTextUnits(await ctx.tables.read(BASE_TEXT_UNITS), [], [], undefined)
    const windows = shard.select(llmWindows(units, { batchSize: s.batch_size, batchOverlap: s.batch_overlap }))
    const chat = ctx.models.chat(s.completion_model_id, {
      keyPath: 'chunk_graph.completion_model_id',
      cachePartition: s.model_instance_name,
    })
    const progress = ctx.progress('chunk graph batches', windows.length)
    const options = {
      prompt: readPrompt(promptFile(ctx.settings)),
      origin: 'llm' as const,
      concurrency: s.workers,
      ...relationCalls(s),
    }
    const result = await llmEdges(windows, options, { chat, signal: ctx.signal, onBatchDone: () => progress.tick() })
    progress.done()
    record(ctx, result)
    return { summary: { batches: windows.length, failed_batches: result.failures.length } }
  },
})
