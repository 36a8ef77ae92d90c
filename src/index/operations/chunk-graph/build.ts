/**
 * The chunk graph from its sources, in one pass: sequence and shared-entity edges (no model), typed
 * edges from sliding batches and cross-document batches (chat model), then dedupe and pruning.
 */
import { InternalError } from '../../../errors.js'
import type { ChatModel } from '../../../llm/types.js'
import type { ChunkEdgeOrigin, ChunkEdgeRow } from '../../../model/chunk-edges.js'
import { dedupeEdges, pruneEdges, toRows } from './assemble.js'
import { crossDocumentBatches, llmWindows } from './batches.js'
import { cooccurrenceEdges } from './cooccurrence.js'
import { llmEdges, type FailedBatch, type LlmEdgeOptions } from './llm-edges.js'
import { refreshedEdges, type RefreshPlan } from './refresh.js'
import { sequenceEdges } from './sequence.js'
import { sharedEntityEdges } from './shared-entities.js'
import type { ChunkUnit, DraftEdge } from './types.js'
import type { DropReason } from './validate-edges.js'

export interface ChunkGraphOptions {
  sequence: boolean
  sharedEntities: boolean
  minSharedEntities: number
  /** co_occurs_with edges within a sliding window of units (null = off). */
  cooccurrence?: { window: number; minCount: number } | null
  /** Typed edges within sliding batches (null = off). */
  llm: { batchSize: number; batchOverlap: number } | null
  /** Typed edges between similar units of other documents (null = off); vectors by text unit id. */
  crossDocument: {
    vectors: ReadonlyMap<string, ArrayLike<number>>
    threshold: number
    topK: number
    /** Document ids both units of a pair must belong to (undefined = all). */
    documents?: ReadonlySet<string> | undefined
  } | null
  prompt: string
  concurrency: number
  /** Temperature, unit token cap and parse-fallback weight of the typed-edge calls. */
  relationCalls?: RelationCallOptions
  minEdgeWeight: number
  maxEdgesPerChunk: number
  /** A run narrowed to some documents' typed edges (refresh.ts): its batches and the typed edges kept. */
  refresh?: { plan: RefreshPlan; kept: readonly DraftEdge[] } | undefined
}

export type RelationCallOptions = Pick<LlmEdgeOptions, 'temperature' | 'unitMaxTokens' | 'fallbackConfidence'>

export interface ChunkGraphServices {
  /** Needed only when llm or crossDocument is on. */
  chat?: ChatModel
  signal?: AbortSignal
  /** Called with the number of model batches before the first is sent, then once per batch done. */
  onBatches?: (total: number) => void
  onBatchDone?: () => void
}

export interface ChunkGraphResult {
  rows: ChunkEdgeRow[]
  /** Edges proposed per origin, before dedupe and pruning. */
  proposed: Record<ChunkEdgeOrigin, number>
  dropped: DropReason[]
  failures: FailedBatch[]
  /** Batches answered by the step_next parse fallback. */
  fallbacks: FailedBatch[]
  calls: number
  /** Edges removed as duplicates and by pruning. */
  duplicates: number
  pruned: number
  /** A narrowed run: typed edges added, proposed ones that existed already, and the scope's figures. */
  refresh?: { created: number; skipped: number; pairs: number; old: number; new: number }
}

/** Cross-document batches; in a narrowed run only those with a unit of its scope. */
function crossBatches(units: readonly ChunkUnit[], options: ChunkGraphOptions): ChunkUnit[][] {
  const { crossDocument, refresh } = options
  if (crossDocument === null) return []
  const { documents } = crossDocument
  const batches = crossDocumentBatches(
    documents === undefined ? units : units.filter((u) => documents.has(u.document_id)),
    crossDocument.vectors,
    crossDocument.threshold,
    crossDocument.topK,
  )
  return refresh === undefined ? batches : batches.filter((b) => b.some((u) => refresh.plan.scope.has(u.id)))
}

export async function buildChunkGraph(
  units: readonly ChunkUnit[],
  titles: ReadonlyMap<string, string>,
  options: ChunkGraphOptions,
  services: ChunkGraphServices,
): Promise<ChunkGraphResult> {
  const sequence = options.sequence ? sequenceEdges(units) : []
  const shared = options.sharedEntities
    ? sharedEntityEdges(units, titles, options.minSharedEntities, options.maxEdgesPerChunk)
    : []
  const cooccurring =
    options.cooccurrence == null
      ? []
      : cooccurrenceEdges(units, options.cooccurrence.window, options.cooccurrence.minCount)
  const { llm, refresh } = options
  const windows = llm === null ? [] : (refresh?.plan.windows ?? llmWindows(units, llm))
  const cross = crossBatches(units, options)
  services.onBatches?.(windows.length + cross.length)
  const empty = {
    edges: [] as DraftEdge[],
    dropped: [] as DropReason[],
    failures: [] as FailedBatch[],
    fallbacks: [] as FailedBatch[],
    calls: 0,
  }
  const call = async (batches: ChunkUnit[][], origin: 'llm' | 'cross_document') => {
    if (batches.length === 0) return empty
    if (services.chat === undefined) throw new InternalError('buildChunkGraph: typed edges need a chat model')
    const chatServices = { chat: services.chat, signal: services.signal, onBatchDone: services.onBatchDone }
    const callOptions = { prompt: options.prompt, origin, concurrency: options.concurrency, ...options.relationCalls }
    return llmEdges(batches, callOptions, chatServices)
  }
  const typed = await call(windows, 'llm')
  const crossTyped = await call(cross, 'cross_document')
  const narrowed = narrowedTypedEdges([...typed.edges, ...crossTyped.edges], refresh)
  const all = [...sequence, ...shared, ...cooccurring, ...narrowed.edges]
  const unique = dedupeEdges(all)
  const kept = pruneEdges(unique, { minEdgeWeight: options.minEdgeWeight, maxEdgesPerChunk: options.maxEdgesPerChunk })
  return {
    rows: toRows(kept, new Map(units.map((u, i) => [u.id, i]))),
    proposed: {
      sequence: sequence.length,
      shared_entities: shared.length,
      cooccurrence: cooccurring.length,
      llm: typed.edges.length,
      cross_document: crossTyped.edges.length,
    },
    dropped: [...typed.dropped, ...crossTyped.dropped],
    failures: [...typed.failures, ...crossTyped.failures],
    fallbacks: [...typed.fallbacks, ...crossTyped.fallbacks],
    calls: typed.calls + crossTyped.calls,
    duplicates: all.length - unique.length,
    pruned: unique.length - kept.length,
    ...(narrowed.figures === undefined ? {} : { refresh: narrowed.figures }),
  }
}

/** The typed edges a run keeps: all proposed ones, or in a narrowed run the kept ones and those it adds, with its figures. */
function narrowedTypedEdges(
  proposed: DraftEdge[],
  refresh: ChunkGraphOptions['refresh'],
): { edges: DraftEdge[]; figures?: ChunkGraphResult['refresh'] } {
  if (refresh === undefined) return { edges: proposed }
  const { plan, kept } = refresh
  const added = refreshedEdges(proposed, plan, kept)
  return {
    edges: [...kept, ...added.edges],
    figures: { created: added.created, skipped: added.skipped, pairs: plan.pairs, old: plan.old, new: plan.new },
  }
}
