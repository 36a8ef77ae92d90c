/** The whole settings file: every top-level key of Microsoft GraphRAG v3, in its order. */
import { int, oneOf, optionalOneOf, section, strList, type Infer } from './fields.js'
import { completionModels, embeddingModels } from './sections/models.js'
import {
  cache,
  chunking,
  input,
  inputStorage,
  outputStorage,
  reporting,
  tableProvider,
  updateOutputStorage,
  vectorStore,
} from './sections/io.js'
import { hybridSearch } from './sections/hybrid.js'
import { rerank } from './sections/rerank.js'
import { lazySearch } from './sections/lazy.js'
import { basicSearch, driftSearch, globalSearch, localSearch } from './sections/search.js'
import { chunkGraph, graphSearch } from './sections/chunk-graph.js'
import { server } from './sections/server.js'
import { evalSettings } from './sections/eval.js'
import { entityResolution } from './sections/entity-resolution.js'
import {
  clusterGraph,
  communityReports,
  embedText,
  extractClaims,
  extractGraph,
  extractGraphNlp,
  pruneGraph,
  snapshots,
  summarizeDescriptions,
} from './sections/workflows.js'

export const SETTINGS = section({
  completion_models: completionModels,
  embedding_models: embeddingModels,
  concurrent_requests: int(25, 'Parallel LLM requests per model (unless the model sets its own).', {
    min: 1,
    max: 10_000,
  }),
  async_mode: oneOf(
    ['threaded', 'asyncio'],
    'threaded',
    'threaded or asyncio: both make async calls bounded by concurrent_requests, as in Microsoft GraphRAG.',
  ),
  input,
  input_storage: inputStorage,
  chunking,
  output_storage: outputStorage,
  update_output_storage: updateOutputStorage,
  table_provider: tableProvider,
  cache,
  reporting,
  vector_store: vectorStore,
  method: optionalOneOf(
    ['standard', 'fast'],
    'Indexing method when `graphrag index` gets no --method: standard (LLM extraction) or fast (NLP, works offline).',
  ),
  workflows: strList(null, "Workflows to run, replacing the method's list (null = the method's list)."),
  embed_text: embedText,
  extract_graph: extractGraph,
  summarize_descriptions: summarizeDescriptions,
  extract_graph_nlp: extractGraphNlp,
  prune_graph: pruneGraph,
  cluster_graph: clusterGraph,
  extract_claims: extractClaims,
  community_reports: communityReports,
  snapshots,
  local_search: localSearch,
  global_search: globalSearch,
  drift_search: driftSearch,
  basic_search: basicSearch,
  // Ours (not in Microsoft GraphRAG): the chunk graph and the search that walks it.
  chunk_graph: chunkGraph,
  graph_search: graphSearch,
  hybrid_search: hybridSearch,
  // Ours: the rerank stage of hybrid search.
  rerank,
  // Ours: LazyGraphRAG-class search over the cheap index, one budget knob.
  lazy_search: lazySearch,
  // Ours: the HTTP API of `graphrag serve`.
  server,
  // Ours: `graphrag eval`.
  eval: evalSettings,
  // Ours: entity resolution, noise control and curation.yaml.
  entity_resolution: entityResolution,
})

/** Settings as written in the file, defaults applied (paths still relative). */
export type RawSettings = Infer<typeof SETTINGS>

/** Validated settings: paths resolved against the project root. Deep-frozen. */
export type Settings = RawSettings & {
  /** Absolute project root. */
  readonly root: string
  /** Absolute path of the settings file, or undefined when defaults were used. */
  readonly configFile: string | undefined
}

export type ModelSettings = Settings['completion_models'][string]
