/**
 * Keys of chunk_graph for the typed-edge (relation) calls, after the Evolution RAG design's
 * RELATION_LLM_TEMPERATURE, RELATION_CHUNK_TRUNC and REL_FALLBACK_CONFIDENCE. Our defaults keep
 * earlier runs' replies valid (same requests, same cache keys); docs/seeds.md gives the design's values.
 */
import { bool, int, num, optionalNum } from '../fields.js'

export const chunkGraphRelations = {
  cooccurrence_edges: bool(
    false,
    "Link text units of one document within cooccurrence_window consecutive units that mention the same entities (relation co_occurs_with, both directions; the design's CO_OCCURS_WITH).",
  ),
  cooccurrence_window: int(2, 'Consecutive text units of the co-occurrence window (2 = neighbours only).', {
    min: 2,
    max: 1000,
  }),
  cooccurrence_min_count: int(
    2,
    "Entities two units in one window must both mention to keep their co_occurs_with edge (the design's COOCCUR_MIN_COUNT).",
    { min: 1, max: 1_000_000 },
  ),
  relation_temperature: optionalNum(
    "Temperature of the typed-edge calls (null = the model's call_args; the Evolution RAG design uses 0).",
    { min: 0, max: 2, example: 0 },
  ),
  relation_unit_max_tokens: int(
    0,
    'Tokens of each text unit shown in a typed-edge call; a longer unit is cut at a word boundary (0 = whole units; the design cuts at 400 characters, about 100 tokens).',
    { min: 0, max: 10_000_000 },
  ),
  parse_fallback_confidence: num(
    0,
    'When a typed-edge reply cannot be parsed: link the consecutive units of the batch by step_next edges of this weight and count relation_parse_fallback in stats (0 = no fallback edges: the batch is reported as failed; the design uses 0.3).',
    { min: 0, max: 1 },
  ),
}
