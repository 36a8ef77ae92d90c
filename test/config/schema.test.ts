import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import type { Declaration } from '../../src/config/fields.js'
import { SETTINGS } from '../../src/config/schema.js'
import { describeShared, sharedPath } from '../support/shared.js'

const REMOTE = ['connection_string', 'container_name', 'account_url', 'bucket', 'region', 'endpoint_url']
const STORAGE = ['type', 'encoding', 'base_dir', ...REMOTE, 'database_name']
const MODEL = [
  'type',
  'model_provider',
  'model',
  'call_args',
  'api_base',
  'api_version',
  'api_key',
  'auth_method',
  'azure_deployment_name',
  'retry',
  'rate_limit',
  'metrics',
  'mock_responses',
]
const RETRY = ['type', 'max_retries', 'base_delay', 'jitter', 'max_delay']
const RATE_LIMIT = ['type', 'period_in_seconds', 'requests_per_period', 'tokens_per_period']

/**
 * Every key of spec/reference-index.md §2.2 (Microsoft GraphRAG 3.1), by section; `<id>` stands for
 * the free ids of completion_models, embedding_models and vector_store.index_schema.
 */
const REFERENCE_KEYS: Readonly<Record<string, readonly string[]>> = {
  '': [
    'completion_models',
    'embedding_models',
    'concurrent_requests',
    'async_mode',
    'input',
    'input_storage',
    'chunking',
    'output_storage',
    'update_output_storage',
    'table_provider',
    'cache',
    'reporting',
    'vector_store',
    'workflows',
    'embed_text',
    'extract_graph',
    'summarize_descriptions',
    'extract_graph_nlp',
    'prune_graph',
    'cluster_graph',
    'extract_claims',
    'community_reports',
    'snapshots',
    'local_search',
    'global_search',
    'drift_search',
    'basic_search',
  ],
  table_provider: ['type', 'container_name', 'legacy_container', 'batch_size'],
  cache: ['type', 'storage'],
  'cache.storage': STORAGE,
  reporting: ['type', 'base_dir', ...REMOTE],
  'completion_models.<id>': MODEL,
  'completion_models.<id>.retry': RETRY,
  'completion_models.<id>.rate_limit': RATE_LIMIT,
  'embedding_models.<id>': MODEL,
  'embedding_models.<id>.retry': RETRY,
  'embedding_models.<id>.rate_limit': RATE_LIMIT,
  input: ['type', 'encoding', 'file_pattern', 'id_column', 'title_column', 'text_column'],
  input_storage: STORAGE,
  output_storage: STORAGE,
  update_output_storage: STORAGE,
  chunking: ['type', 'encoding_model', 'size', 'overlap', 'prepend_metadata'],
  vector_store: [
    'type',
    'db_uri',
    'url',
    'api_key',
    'audience',
    'connection_string',
    'database_name',
    'vector_size',
    'index_schema',
  ],
  'vector_store.index_schema.<id>': ['index_name', 'id_field', 'vector_field', 'vector_size', 'fields'],
  embed_text: ['embedding_model_id', 'model_instance_name', 'batch_size', 'batch_max_tokens', 'names'],
  extract_graph: ['completion_model_id', 'model_instance_name', 'prompt', 'entity_types', 'max_gleanings'],
  summarize_descriptions: ['completion_model_id', 'model_instance_name', 'prompt', 'max_length', 'max_input_tokens'],
  extract_graph_nlp: ['normalize_edge_weights', 'concurrent_requests', 'async_mode', 'text_analyzer'],
  'extract_graph_nlp.text_analyzer': [
    'extractor_type',
    'model_name',
    'max_word_length',
    'word_delimiter',
    'include_named_entities',
    'exclude_nouns',
    'exclude_entity_tags',
    'exclude_pos_tags',
    'noun_phrase_tags',
    'noun_phrase_grammars',
  ],
  prune_graph: [
    'min_node_freq',
    'max_node_freq_std',
    'min_node_degree',
    'max_node_degree_std',
    'min_edge_weight_pct',
    'remove_ego_nodes',
    'lcc_only',
  ],
  cluster_graph: ['max_cluster_size', 'use_lcc', 'seed'],
  extract_claims: ['enabled', 'completion_model_id', 'model_instance_name', 'prompt', 'description', 'max_gleanings'],
  community_reports: [
    'completion_model_id',
    'model_instance_name',
    'graph_prompt',
    'text_prompt',
    'max_length',
    'max_input_length',
  ],
  snapshots: ['embeddings', 'graphml', 'raw_graph'],
  local_search: [
    'prompt',
    'completion_model_id',
    'embedding_model_id',
    'text_unit_prop',
    'community_prop',
    'conversation_history_max_turns',
    'top_k_entities',
    'top_k_relationships',
    'max_context_tokens',
  ],
  global_search: [
    'map_prompt',
    'reduce_prompt',
    'knowledge_prompt',
    'completion_model_id',
    'max_context_tokens',
    'data_max_tokens',
    'map_max_length',
    'reduce_max_length',
    'dynamic_search_threshold',
    'dynamic_search_keep_parent',
    'dynamic_search_num_repeats',
    'dynamic_search_use_summary',
    'dynamic_search_max_level',
  ],
  drift_search: [
    'prompt',
    'reduce_prompt',
    'completion_model_id',
    'embedding_model_id',
    'data_max_tokens',
    'reduce_max_tokens',
    'reduce_temperature',
    'reduce_max_completion_tokens',
    'concurrency',
    'drift_k_followups',
    'primer_folds',
    'primer_llm_max_tokens',
    'n_depth',
    'local_search_text_unit_prop',
    'local_search_community_prop',
    'local_search_top_k_mapped_entities',
    'local_search_top_k_relationships',
    'local_search_max_data_tokens',
    'local_search_temperature',
    'local_search_top_p',
    'local_search_n',
    'local_search_llm_max_gen_tokens',
    'local_search_llm_max_gen_completion_tokens',
  ],
  basic_search: ['prompt', 'completion_model_id', 'embedding_model_id', 'k', 'max_context_tokens'],
}

/** Backticked words of §2.2 that are values, defaults or prose, not keys. */
const NOT_KEYS = new Set([
  'asyncio',
  'threaded',
  'azure',
  'azure_ai_search',
  'azure_managed_identity',
  'blob',
  'cosmosdb',
  'csv',
  'file',
  'memory',
  'none',
  'json',
  'jsonl',
  'markitdown',
  'parquet',
  'text',
  'lancedb',
  'litellm',
  'mock',
  'openai',
  'gemini',
  'tokens',
  'sentence',
  'o200k_base',
  'exponential_backoff',
  'immediate',
  'sliding_window',
  'regex_english',
  'syntactic_parser',
  'cfg',
  'en_core_web_md',
  'default_completion_model',
  'default_embedding_model',
  'community_reporting',
  'text_embedding',
  'entity_description',
  'community_full_content',
  'text_unit_text',
  'delay',
  'period',
  'max_tokens',
  'max_completion_tokens',
])

/** Whether a dotted path (with `<id>` for map entries) is declared in SETTINGS. */
function isDeclared(path: string): boolean {
  let keys: Readonly<Record<string, Declaration>> | undefined = SETTINGS.shape as Readonly<Record<string, Declaration>>
  let last: Declaration | undefined
  for (const segment of path.split('.')) {
    if (segment === '<id>') {
      keys = last?.entries
      continue
    }
    last = keys?.[segment]
    if (last === undefined) return false
    keys = last.shape
  }
  return true
}

describe('settings schema against Microsoft GraphRAG v3 (§2.2)', () => {
  it('declares every key of the reference', () => {
    const missing = Object.entries(REFERENCE_KEYS).flatMap(([section, keys]) =>
      keys.map((key) => (section === '' ? key : `${section}.${key}`)).filter((path) => !isDeclared(path)),
    )
    expect(missing).toEqual([])
  })
})

describeShared('settings schema: the key list above is complete', () => {
  it('every backticked key of spec/reference-index.md §2.2 is in REFERENCE_KEYS', () => {
    const spec = readFileSync(sharedPath('spec', 'reference-index.md'), 'utf8')
    const section = spec.slice(spec.indexOf('### 2.2'), spec.indexOf('Prompt paths:'))
    expect(section.length).toBeGreaterThan(1000)
    const listed = new Set([
      ...Object.keys(REFERENCE_KEYS).flatMap((s) => s.split('.')),
      ...Object.values(REFERENCE_KEYS).flat(),
    ])
    const words = new Set([...section.matchAll(/`([a-z][a-z0-9_]*)`/g)].map((m) => m[1]!))
    expect([...words].filter((w) => !listed.has(w) && !NOT_KEYS.has(w))).toEqual([])
  })
})
