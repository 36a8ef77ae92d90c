/** Settings of the indexing workflows, one section each, keyed as in Microsoft GraphRAG v3. */
import { extractionSeedKeys } from './extraction-seed.js'
import { bool, ignored, int, num, oneOf, optionalNum, optionalStr, section, str, strList, strMap } from '../fields.js'

export const DEFAULT_ENTITY_TYPES = ['organization', 'person', 'geo', 'event'] as const
export const DEFAULT_EXCLUDE_NOUNS = [
  'stuff',
  'thing',
  'things',
  'bunch',
  'bit',
  'bits',
  'people',
  'person',
  'okay',
  'hey',
  'hi',
  'hello',
  'laughter',
  'oh',
] as const

export const embedText = section({
  embedding_model_id: str('default_embedding_model', 'Embedding model id from embedding_models.'),
  model_instance_name: str('text_embedding', 'Cache partition name.'),
  batch_size: int(16, 'Texts per embedding request.', { min: 1, max: 1_000_000 }),
  batch_max_tokens: int(8191, 'Tokens per embedding request; longer texts are split and mean-pooled.', {
    min: 1,
    max: 10_000_000,
  }),
  names: strList(
    ['entity_description', 'community_full_content', 'text_unit_text'],
    'Embeddings to generate, each its own LanceDB table: entity_title, entity_description, relationship_description, document_text, text_unit_text, community_title, community_summary, community_full_content.',
  ),
})

export const extractGraph = section({
  completion_model_id: str('default_completion_model', 'Chat model id from completion_models.'),
  model_instance_name: str('extract_graph', 'Cache partition name.'),
  prompt: optionalStr('Prompt file (null = built-in).'),
  entity_types: strList([...DEFAULT_ENTITY_TYPES], 'Entity types the model is asked to extract.'),
  max_gleanings: int(1, 'Follow-up "anything missed?" rounds per chunk.', { min: 0, max: 1000 }),
  max_failed_fraction: num(0, 'Fraction of chunks allowed to fail after retries before the workflow fails.', {
    min: 0,
    max: 1,
  }),
  fail_on_empty_replies: bool(
    false,
    'Count a reply still blank after its retries as a failed chunk (against max_failed_fraction) instead of reading it as no records; claim extraction follows it too. Off, a run fails on blank replies only when every reply is blank.',
  ),
  normalize_titles: bool(
    false,
    'Older switch for entity_resolution.normalize_names: true merges names even when that is off (false leaves it to entity_resolution).',
  ),
  ...extractionSeedKeys,
})

export const summarizeDescriptions = section({
  completion_model_id: str('default_completion_model', 'Chat model id from completion_models.'),
  model_instance_name: str('summarize_descriptions', 'Cache partition name.'),
  prompt: optionalStr('Prompt file (null = built-in).'),
  max_length: int(500, 'Word limit given to the model for each summary.', { min: 1, max: 10_000_000 }),
  max_input_tokens: int(4000, 'Token budget for the descriptions sent in one call.', { min: 1, max: 10_000_000 }),
})

/** The reference's cfg-extractor grammar: adjacent tag pairs merged into one phrase tag. */
const DEFAULT_NOUN_PHRASE_GRAMMARS = {
  'PROPN,PROPN': 'PROPN',
  'NOUN,NOUN': 'NOUNS',
  'NOUNS,NOUN': 'NOUNS',
  'ADJ,ADJ': 'ADJ',
  'ADJ,NOUN': 'NOUNS',
}

const WINK_ONLY = 'noun phrases always come from the built-in wink-nlp English tagger'
const SPACY_ONLY = 'only the syntactic_parser and cfg extractors use it; graphrag always uses its wink-nlp tagger'

export const extractGraphNlp = section({
  normalize_edge_weights: bool(true, 'Replace co-occurrence counts by pointwise mutual information.'),
  concurrent_requests: int(25, 'Unused, as in Microsoft GraphRAG (NLP extraction makes no requests).', {
    min: 1,
    max: 10_000,
  }),
  async_mode: oneOf(['threaded', 'asyncio'], 'threaded', 'Unused, as in Microsoft GraphRAG.'),
  text_analyzer: section({
    extractor_type: ignored(
      oneOf(
        ['regex_english', 'syntactic_parser', 'cfg'],
        'regex_english',
        'Extractor of the reference (regex_english, syntactic_parser or cfg). Not used: graphrag always uses its wink-nlp English tagger, closest to regex_english.',
      ),
      WINK_ONLY,
    ),
    model_name: ignored(
      str('en_core_web_md', 'spaCy model of the syntactic_parser / cfg extractors. Not used (no spaCy here).'),
      SPACY_ONLY,
    ),
    max_word_length: int(15, 'Longest word kept in a phrase.', { min: 1, max: 1000 }),
    word_delimiter: str(' ', 'Joins the words of a phrase.'),
    include_named_entities: bool(true, 'Keep single-word phrases that are proper nouns.'),
    exclude_nouns: strList([...DEFAULT_EXCLUDE_NOUNS], 'Words dropped from phrases (null = this default list).', {
      nullMeansDefault: true,
    }),
    exclude_entity_tags: ignored(
      strList(
        ['DATE'],
        'Entity tags dropped by the syntactic_parser / cfg extractors. Not used (wink-nlp runs without NER here).',
      ),
      SPACY_ONLY,
    ),
    exclude_pos_tags: ignored(
      strList(
        ['DET', 'PRON', 'INTJ', 'X'],
        'Part-of-speech tags dropped by the syntactic_parser / cfg extractors. Not used.',
      ),
      SPACY_ONLY,
    ),
    noun_phrase_tags: ignored(
      strList(['PROPN', 'NOUNS'], 'Tags the cfg extractor keeps as phrases. Not used.'),
      SPACY_ONLY,
    ),
    noun_phrase_grammars: ignored(
      strMap(
        DEFAULT_NOUN_PHRASE_GRAMMARS,
        'Tag pairs the cfg extractor merges. Not used: phrases are up to two adjectives followed by one to three nouns.',
      ),
      SPACY_ONLY,
    ),
  }),
})

export const pruneGraph = section({
  min_node_freq: int(2, 'Drop entities seen in fewer text units.', { min: 0, max: 1_000_000 }),
  max_node_freq_std: optionalNum('Drop entities more frequent than mean + k·std (null = off).', {
    min: -1000,
    max: 1000,
  }),
  min_node_degree: int(1, 'Drop entities with a lower degree.', { min: 0, max: 1_000_000 }),
  max_node_degree_std: optionalNum('Drop entities with degree above mean + k·std (null = off).', {
    min: -1000,
    max: 1000,
  }),
  min_edge_weight_pct: num(40, 'Drop relationships below this weight percentile.', { min: 0, max: 100 }),
  remove_ego_nodes: bool(true, 'Drop the single highest-degree entity.'),
  lcc_only: bool(false, 'Keep only the largest connected component.'),
})

export const clusterGraph = section({
  max_cluster_size: int(10, 'Communities with at least this many members are split into a further level.', {
    min: 1,
    max: 1_000_000,
  }),
  use_lcc: bool(true, 'Cluster only the largest connected component.'),
  seed: int(0xdeadbeef, 'Random seed (same seed, same communities).', { min: 0, max: 4_294_967_295 }),
  mode: oneOf(
    ['quality', 'compat'],
    'quality',
    'Leiden mode: quality (iterated to a stable partition, higher modularity) or compat (identical to Microsoft GraphRAG, graspologic-native 1.2).',
  ),
  max_iterations: int(
    10,
    'Upper bound of Leiden iterations per run in quality mode; it stops earlier once an iteration moves no node or raises modularity by less than 0.2% (karate: 2-4 iterations, a 100k-node graph: 3).',
    { min: 1, max: 1000 },
  ),
  // Seed design 001 (auto-tuned hybrid GraphRAG) names these two; see docs/seeds.md.
  resolution: num(
    1,
    'Leiden resolution γ: higher gives more, smaller communities; lower fewer, larger ones (1 = plain modularity, as Microsoft GraphRAG).',
    { min: 0.001, max: 1000 },
  ),
  min_community_size: int(
    1,
    'Communities with fewer members are merged into the neighbouring community of the same level they are most strongly linked to, or dropped when they have none (1 = keep all, as Microsoft GraphRAG; the seed design uses 3).',
    { min: 1, max: 1_000_000 },
  ),
})

export const extractClaims = section({
  enabled: bool(false, 'Extract claims (covariates).'),
  completion_model_id: str('default_completion_model', 'Chat model id from completion_models.'),
  model_instance_name: str('extract_claims', 'Cache partition name.'),
  prompt: optionalStr('Prompt file (null = built-in).'),
  description: str('Any claims or facts that could be relevant to information discovery.', 'What counts as a claim.'),
  max_gleanings: int(1, 'Follow-up rounds per chunk.', { min: 0, max: 1000 }),
})

export const communityReports = section({
  completion_model_id: optionalStr(
    'Chat model id from completion_models (null: the fast method writes extractive reports offline).',
    { def: 'default_completion_model' },
  ),
  model_instance_name: str('community_reporting', 'Cache partition name.'),
  graph_prompt: optionalStr('Prompt for graph-context reports (null = built-in).'),
  text_prompt: optionalStr('Prompt for text-unit-context reports (null = built-in).'),
  max_length: int(2000, 'Word limit given to the model for each report.', { min: 1, max: 10_000_000 }),
  max_input_length: int(8000, 'Token budget of the context of one report.', { min: 1, max: 10_000_000 }),
  max_failed_fraction: num(0, 'Fraction of communities allowed to fail after retries before the workflow fails.', {
    min: 0,
    max: 1,
  }),
  // Ours (the fast method's model-written reports, docs/lazy-search.md §index cost): 0 restores Microsoft's behaviour.
  text_units_per_report: int(
    8,
    "The fast method writes one model report per this many text units, for the communities spanning the most text units; the others get the extractive report (0: a model report for every community, as Microsoft's fast method).",
    { min: 0, max: 1_000_000 },
  ),
  text_context_tokens: int(
    2000,
    "Token budget of a fast-method report's context, at most max_input_length: excerpts of the community's most central text units, each its sentences naming most of the community's members, up to a fifth of the budget (0: whole text units up to max_input_length, as Microsoft's fast method).",
    { min: 0, max: 10_000_000 },
  ),
  update_max_context_change: num(
    0.15,
    "graphrag update keeps a changed community's report when nothing it was written from was removed (a row gone from the index, or rewritten after losing a text unit) and its context rows changed by at most this share since (Jaccard distance); 0 regenerates every report whose context changed.",
    { min: 0, max: 1 },
  ),
})

export const snapshots = section({
  embeddings: bool(false, 'Also write embeddings.<name>.parquet.'),
  graphml: bool(false, 'Also write graph.graphml.'),
  raw_graph: bool(false, 'Also write raw_entities / raw_relationships before summarisation.'),
})
