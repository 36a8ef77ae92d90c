/** Settings of hybrid search (ours): signals, fusion, bonuses, context and citations. */
import { bool, int, num, oneOf, optionalStr, section, str } from '../fields.js'
import { hybridScoring } from './hybrid-scoring.js'

const weight = (def: number, description: string) => num(def, description, { min: 0, max: 1000 })

/** Bonus weight per chunk_edges relation (× the edge's confidence); relations not listed get `default`. */
const hybridEdgeWeights = section(
  {
    caused_by: weight(0.22, 'A cause/effect edge.'),
    elaborates: weight(0.2, 'An edge whose passage supports or elaborates the other.'),
    references: weight(0.18, 'An explicit reference.'),
    part_of: weight(0.15, 'A part/whole edge.'),
    depends_on: weight(0.15, 'A dependency edge.'),
    contradicts: weight(0.15, 'A contradiction (worth reading next to the passage it contradicts).'),
    similar_to: weight(0.1, 'A similarity edge.'),
    sequence: weight(0.05, 'The next or previous chunk of the same document.'),
    related_to: weight(0.15, 'A shared-entity edge.'),
    // The Evolution RAG design's relation names and weights (REL_WEIGHT_*).
    follows: weight(0.16, 'The source follows the target (design relation).'),
    supports: weight(0.2, 'The source supports the target (design relation).'),
    step_next: weight(0.12, 'The next step, or the parse-fallback edge (design relation).'),
    co_occurs_with: weight(0.1, "A co-occurrence edge (cooccurrence_edges; the design's REL_WEIGHT_COOCCUR)."),
    default: weight(0.15, 'Any other relation.'),
  },
  'Bonus weight per chunk-edge relation.',
)

export const hybridSearch = section({
  prompt: optionalStr('Prompt file (null = built-in: answer from the [S#] passages and cite them).'),
  completion_model_id: optionalStr('Chat model id (null: offline, print the cited context and the ranking table).', {
    def: 'default_completion_model',
  }),
  embedding_model_id: optionalStr('Embedding model id (must be the one used for indexing).', {
    def: 'default_embedding_model',
  }),
  query_entities: oneOf(
    ['model', 'noun_phrases'],
    'model',
    'How entities are found in the question: the chat model (a JSON list) or the offline noun-phrase extractor (used anyway when there is no chat model).',
  ),
  entity_min_similarity: num(
    0.5,
    'Question entities that match no entity name or alias map to the nearest entity_description vector at this cosine similarity or more.',
    { min: 0, max: 1 },
  ),
  use_vector: bool(true, 'Rank text units by vector similarity to the question (text_unit_text).'),
  use_bm25: bool(true, "Rank text units by BM25 over LanceDB's full-text index."),
  use_graph: bool(true, "Rank text units of the entities reached from the question's entities."),
  vector_top_k: int(20, 'Text units taken from the vector ranking.', { min: 1, max: 1_000_000 }),
  bm25_top_k: int(20, 'Text units taken from the BM25 ranking.', { min: 1, max: 1_000_000 }),
  graph_top_k: int(20, 'Text units taken from the graph-path ranking.', { min: 1, max: 1_000_000 }),
  relationship_top_k: int(
    3,
    'When the index has relationship_description vectors: the endpoints of this many relationships nearest the question (at entity_min_similarity or more) also start the graph walk.',
    { min: 0, max: 1_000_000 },
  ),
  max_hops: int(2, "Relationship hops walked from the question's entities.", { min: 0, max: 1000 }),
  rrf_k: int(60, 'Reciprocal Rank Fusion constant: a unit at rank r (0 = first) of a list scores 1/(rrf_k + r + 1).', {
    min: 0,
    max: 1_000_000,
  }),
  shared_entity_weight: weight(0.15, "Bonus × the share of the question's entities a passage mentions."),
  cooccurrence_weight: weight(
    0.1,
    "Bonus × the share of pairs of the question's entities a passage mentions together.",
  ),
  use_degree: bool(false, 'Add a degree-centrality bonus (passages about well-connected entities).'),
  degree_weight: weight(
    0.1,
    "Bonus × the mean normalised degree of a passage's entities (when use_degree; the Evolution RAG design's 0.1).",
  ),
  edge_seed_k: int(5, 'Top fused passages whose chunk_edges neighbours get an edge bonus (or join as candidates).', {
    min: 0,
    max: 1_000_000,
  }),
  edge_weights: hybridEdgeWeights,
  top_n: int(10, 'Passages put into the context.', { min: 1, max: 1_000_000 }),
  top_communities: int(3, 'Community reports added by similarity to the question (community_full_content).', {
    min: 0,
    max: 1_000_000,
  }),
  max_context_tokens: int(12000, 'Token budget of the context.', { min: 1, max: 10_000_000 }),
  fts_table: str('text_unit_text_fts', 'LanceDB table (ours) holding the full-text index over text unit text.'),
  build_fts: bool(
    true,
    'Build the full-text table on first use when it is missing or stale (false: BM25 is skipped with a warning).',
  ),
  ...hybridScoring,
})
