/** Query settings: local, global, DRIFT and basic search. */
import { bool, int, num, optionalNum, optionalStr, section } from '../fields.js'

const completion = () =>
  optionalStr('Chat model id (null: offline, print the ranked context instead of an answer).', {
    def: 'default_completion_model',
  })
const embedding = () => optionalStr('Embedding model id.', { def: 'default_embedding_model' })

export const localSearch = section({
  prompt: optionalStr('Prompt file (null = built-in).'),
  completion_model_id: completion(),
  embedding_model_id: embedding(),
  text_unit_prop: num(0.5, 'Share of the context budget for source text.', { min: 0, max: 1 }),
  community_prop: num(0.15, 'Share of the context budget for community reports.', { min: 0, max: 1 }),
  conversation_history_max_turns: int(5, 'Conversation turns kept.', { min: 0, max: 1000 }),
  top_k_entities: int(10, 'Entities matched to the question.', { min: 1, max: 1_000_000 }),
  top_k_relationships: int(10, 'Out-of-network relationships kept per matched entity set.', { min: 0, max: 1_000_000 }),
  max_context_tokens: int(12000, 'Token budget of the context.', { min: 1, max: 10_000_000 }),
})

export const globalSearch = section({
  map_prompt: optionalStr('Map prompt file (null = built-in).'),
  reduce_prompt: optionalStr('Reduce prompt file (null = built-in).'),
  knowledge_prompt: optionalStr(
    'General-knowledge add-on prompt file. Unused, as in Microsoft GraphRAG: global search never adds general knowledge.',
  ),
  completion_model_id: completion(),
  max_context_tokens: int(12000, 'Token budget of one map batch.', { min: 1, max: 10_000_000 }),
  data_max_tokens: int(12000, 'Token budget of the reduce context.', { min: 1, max: 10_000_000 }),
  map_max_length: int(1000, 'Word limit of one map answer.', { min: 1, max: 10_000_000 }),
  reduce_max_length: int(2000, 'Word limit of the final answer.', { min: 1, max: 10_000_000 }),
  dynamic_search_threshold: int(
    1,
    'Minimum relevance rating (0-5, as the rating prompt asks) for a report to count in dynamic selection.',
    { min: 0, max: 1_000_000 },
  ),
  dynamic_search_keep_parent: bool(false, 'Keep a parent report when its children are relevant.'),
  dynamic_search_num_repeats: int(1, 'Ratings per report (averaged).', { min: 1, max: 1000 }),
  dynamic_search_use_summary: bool(false, 'Rate on the summary instead of the full report.'),
  dynamic_search_max_level: int(2, 'Deepest level explored by dynamic selection.', { min: 0, max: 1000 }),
})

export const driftSearch = section({
  prompt: optionalStr('Local-step prompt file (null = built-in).'),
  reduce_prompt: optionalStr('Reduce prompt file (null = built-in).'),
  completion_model_id: completion(),
  embedding_model_id: embedding(),
  data_max_tokens: int(12000, 'Token budget of the reduce context.', { min: 1, max: 10_000_000 }),
  reduce_max_tokens: optionalNum('max_tokens of the reduce call.', { min: 1, max: 10_000_000, integer: true }),
  reduce_temperature: num(0, 'Temperature of the reduce call.', { min: 0, max: 2 }),
  reduce_max_completion_tokens: optionalNum('max_completion_tokens of the reduce call.', {
    min: 1,
    max: 10_000_000,
    integer: true,
  }),
  concurrency: int(32, 'Parallel local steps.', { min: 1, max: 10_000 }),
  drift_k_followups: int(20, 'Follow-up actions explored per depth.', { min: 1, max: 1_000_000 }),
  primer_folds: int(5, 'Primer batches.', { min: 1, max: 1000 }),
  primer_llm_max_tokens: int(12000, 'Token budget of a primer call.', { min: 1, max: 10_000_000 }),
  n_depth: int(3, 'Follow-up rounds.', { min: 0, max: 1000 }),
  local_search_text_unit_prop: num(0.9, 'Share of the local-step budget for source text.', { min: 0, max: 1 }),
  local_search_community_prop: num(0.1, 'Share of the local-step budget for reports.', { min: 0, max: 1 }),
  local_search_top_k_mapped_entities: int(10, 'Entities per local step.', { min: 1, max: 1_000_000 }),
  local_search_top_k_relationships: int(10, 'Relationships per local step.', { min: 1, max: 1_000_000 }),
  local_search_max_data_tokens: int(12000, 'Token budget of a local step.', { min: 1, max: 10_000_000 }),
  local_search_temperature: num(0, 'Temperature of local steps.', { min: 0, max: 2 }),
  local_search_top_p: num(1, 'top_p of local steps.', { min: 0, max: 1 }),
  local_search_n: int(1, 'Completions per local step.', { min: 1, max: 1000 }),
  local_search_llm_max_gen_tokens: optionalNum('max_tokens of local steps.', {
    min: 1,
    max: 10_000_000,
    integer: true,
  }),
  local_search_llm_max_gen_completion_tokens: optionalNum('max_completion_tokens of local steps.', {
    min: 1,
    max: 10_000_000,
    integer: true,
  }),
})

export const basicSearch = section({
  prompt: optionalStr('Prompt file (null = built-in).'),
  completion_model_id: completion(),
  embedding_model_id: embedding(),
  k: int(10, 'Text units retrieved.', { min: 1, max: 1_000_000 }),
  max_context_tokens: int(12000, 'Token budget of the context.', { min: 1, max: 10_000_000 }),
})
