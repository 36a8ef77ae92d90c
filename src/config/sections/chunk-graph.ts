/** Settings of our own chunk graph (not in Microsoft GraphRAG): the create_chunk_graph workflow and graph search. */
import { bool, int, num, numList, optionalStr, section, str, strList, strMap } from '../fields.js'
import { chunkGraphRefresh } from './chunk-graph-refresh.js'
import { chunkGraphRelations } from './chunk-graph-relations.js'

export const chunkGraph = section(
  {
    sequence_edges: bool(true, 'Link consecutive text units of a document (relation sequence, weight 1.0).'),
    shared_entity_edges: bool(
      true,
      'Link text units that mention the same entities (relation related_to, both directions).',
    ),
    min_shared_entities: int(2, 'Entities two text units must share to get a related_to edge.', {
      min: 1,
      max: 1_000_000,
    }),
    llm_edges: bool(
      false,
      'Ask the chat model for typed edges (references, depends_on, contradicts, ...) within sliding batches of text units.',
    ),
    cross_document: bool(
      false,
      'Ask the chat model for typed edges between similar text units of different documents (needs the text_unit_text embeddings).',
    ),
    completion_model_id: str(
      'default_completion_model',
      'Chat model id from completion_models (used only with llm_edges or cross_document).',
    ),
    model_instance_name: str('chunk_graph', 'Cache partition name.'),
    prompt: optionalStr('Prompt file of the typed-edge calls (null = built-in).'),
    batch_size: int(5, 'Text units per typed-edge call (at least 2).', { min: 2, max: 1_000_000 }),
    batch_overlap: int(0, 'Text units shared by consecutive batches (less than batch_size).', {
      min: 0,
      max: 1_000_000,
    }),
    cross_document_threshold: num(0.5, 'Cosine similarity a unit of another document needs to be sent with a unit.', {
      min: -1,
      max: 1,
    }),
    cross_document_top_k: int(3, 'Most similar units of other documents sent with each unit.', {
      min: 1,
      max: 1_000_000,
    }),
    min_edge_weight: num(0, 'Edges with a lower weight are left out.', { min: 0, max: 1 }),
    max_edges_per_chunk: int(
      10,
      'Outgoing edges kept per text unit, highest weight first (0 = all: shared-entity edges can then grow with the square of the corpus).',
      { min: 0, max: 1_000_000 },
    ),
    ...chunkGraphRelations,
    // Seed design 002 (see docs/chunk-graph.md): its own worker pool and a document scope.
    workers: int(
      3,
      "Typed-edge calls in flight at once, apart from concurrent_requests (the design's extraction workers; the model's request limit still applies).",
      { min: 1, max: 10_000 },
    ),
    cross_document_documents: strList(
      null,
      'Documents (ids or titles) cross-document edges are sought between; both units of a pair must belong to one of them (null = all documents).',
    ),
    ...chunkGraphRefresh,
  },
  'Chunk graph (graphrag only): typed edges between text units, written to chunk_edges.parquet by create_chunk_graph.',
)

export const graphSearch = section(
  {
    prompt: optionalStr('Prompt file (null = built-in).'),
    completion_model_id: optionalStr('Chat model id (null: offline, print the ranked context instead of an answer).', {
      def: 'default_completion_model',
    }),
    embedding_model_id: optionalStr('Embedding model id.', { def: 'default_embedding_model' }),
    seed_top_k: int(10, 'Text units found by vector similarity where the walk starts.', { min: 1, max: 1_000_000 }),
    top_k: int(20, 'Text units kept after scoring (seeds and units reached by the walk).', { min: 1, max: 1_000_000 }),
    max_hops: int(2, 'Edges followed from a seed at most.', { min: 0, max: 1000 }),
    bidirectional: bool(false, 'Also follow edges backwards (from target to source).'),
    relation_filter: strList(null, 'Relations followed (null = all).'),
    min_traversal_score: num(0, 'Edges whose weight × hop decay is lower are not followed.', { min: 0, max: 1000 }),
    vector_weight: num(0.7, 'Share of a seed score from its vector similarity.', { min: 0, max: 1000 }),
    graph_weight: num(
      0.3,
      'Share of a score from the graph (a seed counts 1.0, a reached unit edge weight × hop decay).',
      { min: 0, max: 1000 },
    ),
    hop_decay: numList([1.0, 0.7, 0.5], 'Factor per hop (index 0 = seeds); hops beyond the list use its last value.', {
      min: 0,
      max: 1,
    }),
    max_context_tokens: int(12000, 'Token budget of the context.', { min: 1, max: 10_000_000 }),
    // Seed design 002: keyword seeding and metadata filters (see docs/chunk-graph.md).
    seed_keyword_weight: num(
      0,
      'Share of BM25 (keyword) ranks in choosing the seeds, fused with the vector ranks by weighted reciprocal rank fusion (0 = vector seeds only).',
      { min: 0, max: 1 },
    ),
    filters: strMap(
      {},
      'Document fields (id, title, creation_date or a metadata field) and the value each must have; a value ending in * matches as a prefix. Only text units of matching documents are seeded or reached ({} = all).',
    ),
  },
  'Graph search (graphrag only): vector seeds, then a walk over chunk_edges.',
)
