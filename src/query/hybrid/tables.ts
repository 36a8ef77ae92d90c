/** The tables hybrid search reads: text units (required); the graph, reports, chunk edges and aliases when present. */
import { CHUNK_EDGES, DOCUMENTS, ENTITY_ALIASES, type ChunkEdgeRow, type EntityAliasRow } from '../../model/index.js'
import { pickColumns } from '../../model/schema.js'
import { ParquetTableStore } from '../../storage/table-store.js'
import { loadTables, type IndexTables } from '../load-index.js'

export interface HybridTables {
  text_units: IndexTables['text_units']
  entities: IndexTables['entities']
  relationships: IndexTables['relationships']
  community_reports: IndexTables['community_reports']
  /** Typed chunk edges (create_chunk_graph); empty when the index has none. */
  chunk_edges: ChunkEdgeRow[]
  /** Other spellings of merged entities (extract_graph.normalize_titles); empty when absent. */
  entity_aliases: EntityAliasRow[]
  /** Document title by id, so a source reads as its file name (`[S3] ferry-minutes.txt`); empty without documents.parquet. */
  document_titles: Map<string, string>
}

// Titles only: the documents' texts are the biggest column of the index, and raw_data would need parquet-wasm.
const DOCUMENT_TITLES = pickColumns(DOCUMENTS, ['id', 'title'])

export async function loadHybridTables(dataDir: string): Promise<HybridTables> {
  const tables = await loadTables(dataDir, ['text_units'], ['entities', 'relationships', 'community_reports'])
  const store = new ParquetTableStore(dataDir, 'js')
  return {
    text_units: tables.text_units,
    entities: tables.entities ?? [],
    relationships: tables.relationships ?? [],
    community_reports: tables.community_reports ?? [],
    chunk_edges: (await store.has(CHUNK_EDGES.name)) ? await store.read(CHUNK_EDGES) : [],
    entity_aliases: (await store.has(ENTITY_ALIASES.name)) ? await store.read(ENTITY_ALIASES) : [],
    document_titles: (await store.has(DOCUMENTS.name))
      ? new Map((await store.read(DOCUMENT_TITLES)).map((d) => [d.id, d.title]))
      : new Map(),
  }
}
