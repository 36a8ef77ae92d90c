/**
 * `model_replies` (ours, not in Microsoft GraphRAG): the model answers each workflow of the last
 * run used, keyed like the LLM cache (a SHA-256 of model, parameters and prompt), so `graphrag
 * update` reuses earlier extractions, summaries and reports even when the cache is gone: only
 * prompts that changed (new or edited text units, changed description sets, changed report
 * contexts) reach the model. Embedding vectors are left out (LanceDB holds them; the cache reuses them).
 */
import { column, defineTable, type RowOf } from './schema.js'

export const MODEL_REPLIES = defineTable('model_replies', [
  column('workflow', 'string'),
  /** The cache partition (model_instance_name, or a non-LLM cache such as noun phrases). */
  column('partition', 'string'),
  column('key', 'string'),
  /** The cache entry as stored (JSON text). */
  column('value', 'string'),
] as const)
export type ModelReplyRow = RowOf<typeof MODEL_REPLIES>
