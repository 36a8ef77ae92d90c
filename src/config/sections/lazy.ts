/**
 * Settings of lazy search (ours, LazyGraphRAG-class): one knob, relevance_budget; every other key has
 * a default that needs no tuning (docs/lazy-search.md says why each is what it is).
 */
import { int, optionalStr, section } from '../fields.js'

export const lazySearch = section({
  completion_model_id: optionalStr(
    'Chat model id of the sub-questions, claims and answer (null: lazy search needs a model and says so).',
    { def: 'default_completion_model' },
  ),
  relevance_model_id: optionalStr(
    'Chat model id of the relevance tests, e.g. a cheaper model (null: the completion model).',
  ),
  embedding_model_id: optionalStr('Embedding model id (must be the one used for indexing).', {
    def: 'default_embedding_model',
  }),
  relevance_budget: int(
    100,
    "The one knob: at most this many text units are tested for relevance per question (each text unit of a batched test counts one). 100 is the low end of the published design's range (100, 500, 1500); a larger budget reads more widely (docs/lazy-search.md).",
    { min: 1, max: 1_000_000 },
  ),
  subquery_count: int(3, 'Sub-questions the question is refined into (one model call; --no-subqueries skips it).', {
    min: 1,
    max: 20,
  }),
  relevance_batch_size: int(
    8,
    "Text units judged per relevance call: a visited community's best untested units, tested together.",
    { min: 1, max: 100 },
  ),
  relevance_excerpt_tokens: int(
    120,
    'What a relevance test reads of a text unit: its sentences sharing most words with the sub-question, up to this many tokens, each judged on its own; the claim step reads only the sentences judged relevant.',
    { min: 20, max: 100_000 },
  ),
  unit_top_k: int(
    200,
    'Text units ranked per sub-question (vector similarity, plus BM25 where the full-text table exists); at least the budget, so a walk given unspent budget later ranks the same units.',
    {
      min: 1,
      max: 1_000_000,
    },
  ),
  max_misses: int(
    3,
    'A branch of the community tree stops after this many consecutive communities without a relevant text unit (z in the design).',
    { min: 1, max: 1000 },
  ),
  claims_per_unit: int(3, 'Claims kept per relevant text unit from the claim step.', { min: 1, max: 100 }),
  claim_batch_size: int(
    16,
    'Relevant text units per claim-extraction call (each read as its relevant sentences only, so a call stays short).',
    { min: 1, max: 100 },
  ),
  max_context_tokens: int(8000, 'Token budget of the claims given to the answer.', { min: 1, max: 10_000_000 }),
})
