/**
 * The settings.yaml that `graphrag init` writes, rendered from the same declarations that validate
 * it: every declared key with its description as a comment and its default (or chosen) value. Keys
 * left at null or empty that declare an example are shown as commented-out examples.
 */
import { providerInfo } from '../llm/providers.js'
import { stringify } from '../vendor/yaml.js'
import { isPlainObject, type Declaration } from './fields.js'
import { knownVectorSize, PROVIDER_STARTS, type ProviderStart } from './provider-starts.js'
import { SETTINGS } from './schema.js'

export interface TemplateOptions {
  /** Chat model name (default: the provider's, gpt-4.1 for openai; see provider-starts.ts). */
  model?: string
  /** Embedding model name (default: the provider's, text-embedding-3-large for openai). */
  embedding?: string
  /** Offline settings: fast method, local hashing embedder, no chat model. */
  offline?: boolean
  /** model_provider of both models (default openai); a keyless one (ollama, lm_studio) gets no api_key. */
  provider?: string
}

/** Files of prompts/ that init writes, keyed by the setting that points at each. */
const PROMPT_SETTINGS: ReadonlyArray<readonly [section: string, key: string, file: string]> = [
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
  ['chunk_graph', 'prompt', 'chunk_graph_edges.txt'],
  ['graph_search', 'prompt', 'graph_search_system_prompt.txt'],
]

export function renderSettingsTemplate(options: TemplateOptions = {}): string {
  const values = templateValues(options)
  const header = options.offline
    ? [
        '# graphrag settings (offline): fast NLP extraction, local hashing embedder, no API key needed.',
        '# Add a chat model under completion_models (an example is commented out below) to get LLM-written reports and answers.',
      ]
    : [
        '# graphrag settings. Keys and defaults follow Microsoft GraphRAG v3, so its settings files load unchanged.',
        '# Environment variables ($VAR or ${VAR}) are substituted; .env beside this file is read first.',
        ...startOf(options.provider).notes,
      ]
  const lines = [...header, '']
  for (const [key, declaration] of Object.entries(SETTINGS.shape as Readonly<Record<string, Declaration>>)) {
    lines.push(...renderKey(key, declaration, values[key], TOP), '')
  }
  return `${lines.join('\n').trimEnd()}\n`
}

function templateValues(options: TemplateOptions): Record<string, unknown> {
  const values = structuredClone(SETTINGS.default) as Record<string, Record<string, unknown> | unknown>
  const set = (section: string, key: string, value: unknown) => {
    ;(values[section] as Record<string, unknown>)[key] = value
  }
  for (const [section, key, file] of PROMPT_SETTINGS) set(section, key, `prompts/${file}`)
  // A new project reads each file by its extension, so a mixed input folder works as it is.
  set('input', 'type', 'auto')
  if (options.offline) {
    values.method = 'fast'
    values.completion_models = {}
    values.embedding_models = {
      default_embedding_model: { model_provider: 'local', model: 'hashing-384', dimensions: 384 },
    }
    set('vector_store', 'vector_size', 384)
    // In a single book the protagonist is the highest-degree phrase; the reference default drops it.
    set('prune_graph', 'remove_ego_nodes', false)
    for (const section of [
      'community_reports',
      'local_search',
      'global_search',
      'drift_search',
      'basic_search',
      'graph_search',
      'hybrid_search',
    ]) {
      set(section, 'completion_model_id', null)
    }
    return values
  }
  values.method = 'standard'
  const provider = options.provider ?? 'openai'
  const start = startOf(provider)
  const keyless = providerInfo(provider).keyless
  const model = (name: string, deployment: string | undefined) => ({
    model_provider: provider,
    model: name,
    auth_method: 'api_key',
    ...(keyless ? {} : { api_key: '${GRAPHRAG_API_KEY}' }),
    ...(start.apiBase === undefined ? {} : { api_base: start.apiBase }),
    ...(start.apiVersion === undefined ? {} : { api_version: start.apiVersion }),
    ...(deployment === undefined ? {} : { azure_deployment_name: deployment }),
    ...(start.concurrentRequests === undefined ? {} : { concurrent_requests: start.concurrentRequests }),
    retry: { type: 'exponential_backoff', max_retries: 7, base_delay: 2 },
  })
  values.completion_models = {
    default_completion_model: model(options.model ?? start.chat, start.deployments?.chat),
  }
  const embedding = options.embedding ?? start.embedding.model
  values.embedding_models = {
    default_embedding_model:
      options.embedding === undefined && start.embedding.local
        ? { model_provider: 'local', model: embedding, dimensions: start.vectorSize }
        : model(embedding, options.embedding === undefined ? start.deployments?.embedding : undefined),
  }
  set('vector_store', 'vector_size', knownVectorSize(embedding) ?? start.vectorSize)
  return values
}

/** The provider's starting models and settings (openai's for a provider without its own entry). */
function startOf(provider: string | undefined): ProviderStart {
  return PROVIDER_STARTS[provider ?? 'openai'] ?? PROVIDER_STARTS.openai!
}

/** Where a line goes: its nesting depth, and the depths at which commented-out blocks started. */
interface Place {
  depth: number
  commentedAt: readonly number[]
}

const TOP: Place = { depth: 0, commentedAt: [] }

const deeper = (at: Place): Place => ({ ...at, depth: at.depth + 1 })
/** Comments out a block; inside a block already commented out, the markers nest, so uncommenting one level still gives valid settings. */
const commented = (at: Place): Place => ({ ...at, commentedAt: [...at.commentedAt, at.depth] })

/** Each `# ` marker sits at the depth its block starts; deleting one level of markers gives valid YAML. */
function line(at: Place, text: string): string {
  let prefix = ''
  let column = 0
  for (const depth of at.commentedAt) {
    prefix += `${'  '.repeat(depth - column)}# `
    column = depth
  }
  return `${prefix}${'  '.repeat(at.depth - column)}${text}`
}

function renderKey(key: string, declaration: Declaration, value: unknown, at: Place): string[] {
  const description = declaration.description ? [line(at, `# ${declaration.description}`)] : []
  return [...description, ...renderBody(key, declaration, value, at)]
}

function renderBody(key: string, declaration: Declaration, value: unknown, at: Place): string[] {
  if (declaration.entries) return renderEntries(key, declaration.entries, value, declaration.example, at)
  if (declaration.shape) {
    // An optional section left null is shown with its keys, commented out.
    const where = isPlainObject(value) ? at : commented(at)
    return [
      line(where, `${key}:`),
      ...renderSection(declaration.shape, isPlainObject(value) ? value : {}, deeper(where)),
    ]
  }
  if (isUnset(value) && declaration.example !== undefined) return renderValue(key, declaration.example, commented(at))
  return renderValue(key, value, at)
}

/** A mapping from ids to sections: its entries, else its example entries commented out, else `{}`. */
function renderEntries(
  key: string,
  shape: Readonly<Record<string, Declaration>>,
  value: unknown,
  example: unknown,
  at: Place,
): string[] {
  const [entries, where] =
    isPlainObject(value) && Object.keys(value).length > 0
      ? [value, at]
      : isPlainObject(example)
        ? [example, commented(at)]
        : [{}, at]
  if (Object.keys(entries).length === 0) return [line(at, `${key}: {}`)]
  const body = Object.entries(entries).flatMap(([id, entry]) => [
    line(deeper(where), `${id}:`),
    ...renderSection(shape, isPlainObject(entry) ? entry : {}, deeper(deeper(where))),
  ])
  return [line(where, `${key}:`), ...body]
}

/** Every declared key of a section; keys the values leave out take their declared default. */
function renderSection(
  shape: Readonly<Record<string, Declaration>>,
  values: Record<string, unknown>,
  at: Place,
): string[] {
  return Object.entries(shape).flatMap(([key, declaration]) =>
    renderKey(key, declaration, key in values ? values[key] : declaration.default, at),
  )
}

function renderValue(key: string, value: unknown, at: Place): string[] {
  if (isPlainObject(value) && Object.keys(value).length > 0) {
    const body = stringify(value, { lineWidth: 0 }).trimEnd().split('\n')
    return [line(at, `${key}:`), ...body.map((text) => line(deeper(at), text))]
  }
  if (Array.isArray(value) && value.length > 0)
    return [line(at, `${key}:`), ...value.map((v) => line(deeper(at), `- ${scalar(v)}`))]
  return [line(at, `${key}: ${scalar(value)}`)]
}

function isUnset(value: unknown): boolean {
  return value === null || value === undefined || (isPlainObject(value) && Object.keys(value).length === 0)
}

function scalar(value: unknown): string {
  if (value === null || value === undefined) return 'null'
  if (isPlainObject(value) || Array.isArray(value)) return stringify(value, { flow: true, lineWidth: 0 }).trim()
  return stringify(value).trim()
}
