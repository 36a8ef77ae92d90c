/**
 * The chunk graph from its sources, in one pass: sequence and shared-entity edges (no model), typed
 * edges from sliding batches and cross-document batches (chat model), then dedupe and pruning.
 */
import { InternalError } from '../../../errors.js'
import type { ChatModel } from '../../../llm/types.js'
import type { ChunkEdgeOrigin, ChunkEdgeRow } from '../../../model/chunk-edges.js'
import { dedupeEdges, pruneEdges, toRows } from './assemble.js'
import { crossDocumentBatches, slidingWindows } from './batches.js'
import { llmEdges, type FailedBatch } from './llm-edges.js'
import { sequenceEdges } from './sequence.js'
import { sharedEntityEdges } from './shared-entities.js'
import type { ChunkUnit, DraftEdge } from './types.js'
import type { DropReason } from './validate-edges.js'

export interface ChunkGraphOptions {
  sequence: boolean
  sharedEntities: boolean
  minSharedEntities: number
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
  minEdgeWeight: number
  maxEdgesPerChunk: number
}

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
  calls: number
  /** Edges removed as duplicates and by pruning. */
  duplicates: number
  pruned: number
}

/** The overlapping batches of consecutive text units the typed-edge prompt is asked about. */
export function llmWindows(
  units: readonly ChunkUnit[],
  llm: { batchSize: number; batchOverlap: number },
): ChunkUnit[][] {
  return slidingWindows(units.length, llm.batchSize, llm.batchOverlap).map(([s, e]) => units.slice(s, e))
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
  const { llm, crossDocument } = options
  const windows = llm === null ? [] : llmWindows(units, llm)
  const cross =
    crossDocument === null
      ? []
      : crossDocumentBatches(
          crossDocument.documents === undefined
            ? units
            : units.filter((u) => crossDocument.documents?.has(u.document_id)),
          crossDocument.vectors,
          crossDocument.threshold,
          crossDocument.topK,
        )
  services.onBatches?.(windows.length + cross.length)
  const empty = { edges: [] as DraftEdge[], dropped: [] as DropReason[], failures: [] as FailedBatch[], calls: 0 }
  const call = async (batches: ChunkUnit[][], origin: 'llm' | 'cross_document') => {
    if (batches.length === 0) return empty
    if (services.chat === undefined) throw new InternalError('buildChunkGraph: typed edges need a chat model')
    const chatServices = { chat: services.chat, signal: services.signal, onBatchDone: services.onBatchDone }
    return llmEdges(batches, { prompt: options.prompt, origin, concurrency: options.concurrency }, chatServices)
  }
  const typed = await call(windows, 'llm')
  const crossTyped = await call(cross, 'cross_document')
  const all = [...sequence, ...shared, ...typed.edges, ...crossTyped.edges]
  const unique = dedupeEdges(all)
  const kept = pruneEdges(unique, { minEdgeWeight: options.minEdgeWeight, maxEdgesPerChunk: options.maxEdgesPerChunk })
  return {
    rows: toRows(kept, new Map(units.map((u, i) => [u.id, i]))),
    proposed: {
      sequence: sequence.length,
      shared_entities: shared.length,
      llm: typed.edges.length,
      cross_document: crossTyped.edges.length,
    },
    dropped: [...typed.dropped, ...crossTyped.dropped],
    failures: [...typed.failures, ...crossTyped.failures],
    calls: typed.calls + crossTyped.calls,
    duplicates: all.length - unique.length,
    pruned: unique.length - kept.length,
  }
}
