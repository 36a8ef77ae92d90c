/**
 * Reads chunk_edges.parquet for graph search. It is optional: an index without it (or whose file
 * cannot be read) still answers from the vector seeds, and the caller warns about it.
 */
import { join } from 'node:path'
import { CHUNK_EDGES, type ChunkEdgeRow } from '../model/chunk-edges.js'
import { ParquetTableStore } from '../storage/table-store.js'

export type ChunkEdgesLoad =
  | { kind: 'loaded'; edges: ChunkEdgeRow[] }
  | { kind: 'missing'; warning: string }
  | { kind: 'unreadable'; warning: string }

export async function loadChunkEdges(dataDir: string): Promise<ChunkEdgesLoad> {
  const store = new ParquetTableStore(dataDir, 'js')
  const file = join(dataDir, `${CHUNK_EDGES.name}.parquet`)
  if (!(await store.has(CHUNK_EDGES.name))) {
    const warning = `the index has no chunk_edges table (${file}), so graph search returns plain vector results; run \`graphrag index\` to build the chunk graph`
    return { kind: 'missing', warning }
  }
  try {
    return { kind: 'loaded', edges: await store.read(CHUNK_EDGES) }
  } catch (error) {
    // Any failure here only costs the walk: the seeds found by vector search are still answered from.
    const reason = error instanceof Error ? error.message : String(error)
    return {
      kind: 'unreadable',
      warning: `cannot read ${file} (${reason}), so graph search returns only its vector seeds`,
    }
  }
}
