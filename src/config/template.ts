/**
 * The settings.yaml that `graphrag init` writes, rendered from the same declarations that validate
 * it: every section, every visible key with its default and its description as a comment.
 */
import { stringify } from 'yaml'
import { isPlainObject, type Field } from './fields.js'
import { SETTINGS } from './schema.js'

export interface TemplateOptions {
  /** Chat model name (default gpt-4.1). */
  model?: string
  /** Embedding model name (default text-embedding-3-large). */
  embedding?: string
  /** Offline settings: fast method, local hashing embedder, no chat model. */
  offline?: boolean
}

type AnyField = Field<unknown> & { shape?: Record<string, AnyField> }

/** Files of prompts/ that init writes, keyed by the setting that points at each. */
export const PROMPT_SETTINGS: ReadonlyArray<readonly [section: string, key: string, file: string]> = [
  ['extract_graph', 'prompt', 'extract_graph.txt'],
  ['summarize_descriptions', 'prompt', 'summarize_descriptions.txt'],
  ['extract_claims', 'prompt', 'extract_claims.txt'],
  ['community_reports', 'graph_prompt', 'community_report_graph.txt'],
  ['community_reports', 'text_prompt', 'community_report_text.txt'],
  ['local_search', 'prompt', 'local_search_system_prompt.txt'],
  ['global_search', 'map_prompt', 'global_search_map_system_prompt.txt'],
  ['global_search', 'reduce_prompt', 'global_search_reduce_system_prompt.txt'],
  ['global_search', 'knowledge_prompt', 'global_search_knowledge_system_prompt.txt'],
  ['drift_search', 'prompt', 'drift_search_system_prompt.txt'],
  ['drift_search', 'reduce_prompt', 'drift_reduce_prompt.txt'],
  ['basic_search', 'prompt', 'basic_search_system_prompt.txt'],
]

export function renderSettingsTemplate(options: TemplateOptions = {}): string {
  const values = templateValues(options)
  const header = options.offline
    ? ['# graphrag settings (offline): fast NLP extraction, local hashing embedder, no API key needed.',
       '# Add a chat model under completion_models to get LLM-written reports and answers.']
    : ['# graphrag settings. Keys and defaults follow Microsoft GraphRAG v3, so its settings files load unchanged.',
       '# Environment variables ($VAR or ${VAR}) are substituted; .env beside this file is read first.']
  const lines = [...header, '']
  for (const [key, field] of Object.entries(SETTINGS.shape as Record<string, AnyField>)) {
    if (field.hidden) continue
    lines.push(...renderKey(key, field, values[key], 0), '')
  }
  return `${lines.join('\n').trimEnd()}\n`
}

function templateValues(options: TemplateOptions): Record<string, unknown> {
  const values = structuredClone(SETTINGS.default) as Record<string, Record<string, unknown> | unknown>
  const set = (section: string, key: string, value: unknown) => {
    ;(values[section] as Record<string, unknown>)[key] = value
  }
  for (const [section, key, file] of PROMPT_SETTINGS) set(section, key, `prompts/${file}`)
  if (options.offline) {
    values.method = 'fast'
    values.completion_models = {}
    values.embedding_models = { default_embedding_model: { model_provider: 'local', model: 'hashing-384', dimensions: 384 } }
    set('vector_store', 'vector_size', 384)
    // In a single book the protagonist is the highest-degree phrase; the reference default drops it.
    set('prune_graph', 'remove_ego_nodes', false)
    for (const section of ['community_reports', 'local_search', 'global_search', 'drift_search', 'basic_search']) {
      set(section, 'completion_model_id', null)
    }
    return values
  }
  values.method = 'standard'
  const model = (name: string) => ({
    model_provider: 'openai',
    model: name,
    auth_method: 'api_key',
    api_key: '${GRAPHRAG_API_KEY}',
    retry: { type: 'exponential_backoff', max_retries: 7, base_delay: 2 },
  })
  values.completion_models = { default_completion_model: model(options.model ?? 'gpt-4.1') }
  values.embedding_models = { default_embedding_model: model(options.embedding ?? 'text-embedding-3-large') }
  return values
}

function renderKey(key: string, field: AnyField, value: unknown, depth: number): string[] {
  const pad = '  '.repeat(depth)
  const comment = field.description ? [`${pad}# ${field.description}`] : []
  if (field.shape && isPlainObject(value) && !isMapOfIds(field, value)) {
    const body = Object.entries(field.shape).filter(([, f]) => !f.hidden).flatMap(([k, f]) => renderKey(k, f, value[k], depth + 1))
    return [...comment, `${pad}${key}:`, ...body]
  }
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    return [...comment, `${pad}${key}:`, ...indent(stringify(value, { lineWidth: 0 }).trimEnd(), depth + 1)]
  }
  if (Array.isArray(value) && value.length > 0) {
    return [...comment, `${pad}${key}:`, ...value.map((v) => `${pad}  - ${scalar(v)}`)]
  }
  return [...comment, `${pad}${key}: ${scalar(value)}`]
}

/** completion_models, embedding_models and index_schema map free ids to sections. */
function isMapOfIds(field: AnyField, value: Record<string, unknown>): boolean {
  const keys = Object.keys(value)
  return keys.length === 0 || keys.some((k) => !(k in (field.shape ?? {})))
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (isPlainObject(value) || Array.isArray(value)) return stringify(value, { flow: true, lineWidth: 0 }).trim()
  return stringify(value).trim()
}

function indent(text: string, depth: number): string[] {
  return text.split('\n').map((line) => `${'  '.repeat(depth)}${line}`)
}
