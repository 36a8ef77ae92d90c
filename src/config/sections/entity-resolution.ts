/** Settings of entity resolution (ours): name merging, noise control and the curation file (docs/entity-resolution.md). */
import { bool, int, optionalNum, section, str, strList } from '../fields.js'

/** Names made only of these words are dropped as noise (after normalisation, lower case). */
export const DEFAULT_STOP_WORDS = [
  ...['a', 'an', 'the', 'and', 'or', 'but', 'of', 'in', 'on', 'at', 'to', 'for', 'by', 'with', 'from', 'as'],
  ...['i', 'me', 'my', 'we', 'us', 'our', 'you', 'your', 'he', 'him', 'his', 'she', 'her', 'it', 'its'],
  ...['they', 'them', 'their', 'this', 'that', 'these', 'those', 'who', 'what', 'which', 'there', 'here'],
  ...['one', 'none', 'nothing', 'something', 'someone', 'everyone', 'anything', 'yes', 'no', 'not'],
  // Sentence-initial words a model may take for names ("Then", "When").
  ...['then', 'when', 'where', 'after', 'before', 'because', 'however', 'also', 'if', 'so', 'how', 'why'],
]

/** Fast method: a noun phrase starting with one of these words is generic ("same ferry", "few minutes"). */
export const DEFAULT_GENERIC_MODIFIERS = [
  ...['few', 'same', 'other', 'own', 'next', 'last', 'first', 'many', 'several', 'such', 'various', 'certain'],
  ...['little', 'long', 'whole', 'much', 'more', 'most', 'some', 'any', 'every', 'each', 'only', 'entire'],
]

/** Fast method: a noun phrase made only of these words (and generic modifiers) is generic ("end", "time"). */
export const DEFAULT_GENERIC_NOUNS = [
  ...['end', 'time', 'times', 'day', 'days', 'minute', 'minutes', 'hour', 'hours', 'moment', 'moments'],
  ...['week', 'weeks', 'year', 'years', 'way', 'ways', 'thing', 'things', 'part', 'parts', 'kind', 'sort'],
  ...['lot', 'lots', 'side', 'place', 'people', 'man', 'woman', 'night', 'morning', 'evening', 'while'],
]

export const entityResolution = section({
  normalize_names: bool(
    true,
    "Merge entities whose names are equal after normalisation (Unicode NFKC, case, punctuation, leading/trailing articles and prepositions, simple plurals); other spellings go to entity_aliases.parquet. Off keeps Microsoft GraphRAG's exact-title entities (extract_graph.normalize_titles: true still turns it on).",
  ),
  plurals: bool(
    true,
    'Fold a simple English plural of the last word ("ferries" → "ferry", "rocks" → "rock") when merging names.',
  ),
  drop_noise: bool(
    true,
    'Drop entities whose names are noise: empty after normalisation, punctuation or digits only, shorter than min_name_length, only stop_words, or (fast method) generic phrases. Counted in stats.json.',
  ),
  min_name_length: int(2, 'Names with fewer characters (after normalisation) are noise.', { min: 1, max: 100 }),
  stop_words: strList(DEFAULT_STOP_WORDS, 'A name made only of these words (lower case) is noise.'),
  generic_modifiers: strList(
    DEFAULT_GENERIC_MODIFIERS,
    'Fast method: a noun phrase whose first word is one of these is generic ("same ferry").',
  ),
  generic_nouns: strList(
    DEFAULT_GENERIC_NOUNS,
    'Fast method: a noun phrase made only of these words and generic_modifiers is generic ("end", "few minutes").',
  ),
  generic_min_frequency: int(
    20,
    'Fast method: a generic noun phrase is dropped unless it occurs in at least this many text units.',
    { min: 1, max: 1_000_000 },
  ),
  fuzzy_threshold: optionalNum(
    'Also merge names whose keys are this similar by edit distance (1 − edits ÷ the longer key; 0.9 joins "ferry cooperative" and "ferry cooperativ"). Null: off.',
    { min: 0.5, max: 1, example: 0.9 },
  ),
  fuzzy_min_length: int(
    6,
    'Keys shorter than this are never fuzzy-matched: short names differ by one letter ("bob", "rob").',
    { min: 1, max: 1000 },
  ),
  embedding_threshold: optionalNum(
    "Also merge names whose embeddings (of the name and the entity's type) have at least this cosine similarity. Null: off. Calls embedding_model_id once per name.",
    { min: 0.5, max: 1, example: 0.93 },
  ),
  embedding_model_id: str('default_embedding_model', 'Embedding model of embedding_threshold.'),
  embedding_max_names: int(
    3000,
    'Names of one type compared pairwise by embedding; a type with more names is skipped with a warning (the comparison grows with the square).',
    { min: 2, max: 1_000_000 },
  ),
  confirm_with_model: bool(
    false,
    'Ask completion_model_id whether each fuzzy or embedding candidate pair names one thing; only pairs it confirms are merged. Off: every candidate above its threshold is merged.',
  ),
  completion_model_id: str('default_completion_model', 'Chat model of confirm_with_model.'),
  max_candidates: int(
    2000,
    'At most this many candidate pairs per run, most similar first; the rest are counted and reported, not merged.',
    { min: 1, max: 1_000_000 },
  ),
  curation_file: str(
    'curation.yaml',
    'Curation rules (merge, rename, set type, delete, add relationship) applied on every index and update; relative to the project root; absent = none.',
  ),
})
