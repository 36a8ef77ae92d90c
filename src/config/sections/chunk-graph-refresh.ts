/**
 * Keys of chunk_graph that narrow one create_chunk_graph run to some documents' typed edges: seed
 * design 000's refresh_relations utility (`graphrag refresh-relations --source`) and its
 * relations-only incremental ingest (`POST /ingest?inc_rel_only=true`). Both set them for one run
 * through GRAPHRAG_CHUNK_GRAPH__… variables; at their defaults every typed edge is built.
 */
import { int, strList } from '../fields.js'

export const chunkGraphRefresh = {
  refresh_documents: strList(
    null,
    "Documents (ids or titles) whose typed edges (llm, cross_document) the run rebuilds; the other documents' typed edges are kept from the current index (null = all documents).",
  ),
  refresh_new_units: int(
    0,
    "With refresh_documents: only the last this many text units of each listed document are new; typed edges are sought among them and with the batch_size - 1 units before them (every pair fewer than batch_size apart), added to the kept edges; none is removed (the design's relations-only incremental mode). 0 = rebuild the listed documents' typed edges.",
    { min: 0, max: 1_000_000_000 },
  ),
}
