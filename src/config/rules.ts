/** Cross-field rules applied after every key parsed; each returns error messages with key paths. */
import type { ModelSettings, RawSettings } from './schema.js'
import type { EndpointSettings } from './sections/models.js'
import { providerInfo, resolveProvider } from '../llm/providers.js'
import { PLACEHOLDER } from './provider-starts.js'

type Rule = (settings: RawSettings) => string[]

const chunkOverlapBelowSize: Rule = (s) =>
  s.chunking.overlap >= s.chunking.size
    ? [`chunking.overlap: expected less than chunking.size (${s.chunking.size}), got ${s.chunking.overlap}`]
    : []

const modelProviderRules: Rule = (s) => {
  const errors: string[] = []
  for (const [group, models] of [
    ['completion_models', s.completion_models],
    ['embedding_models', s.embedding_models],
  ] as const) {
    for (const [id, m] of Object.entries(models)) errors.push(...modelRules(group, `${group}.${id}`, m))
  }
  return errors
}

function modelRules(group: 'completion_models' | 'embedding_models', path: string, m: ModelSettings): string[] {
  const errors: string[] = []
  const pool: readonly EndpointSettings[] | undefined = Array.isArray(m.api_base) ? m.api_base : undefined
  const apiBaseSet = typeof m.api_base === 'string' ? m.api_base.trim() !== '' : pool !== undefined
  const { provider } = resolveProvider(m.model_provider, m.model, apiBaseSet)
  const info = providerInfo(provider)
  if (info.family === 'azure') errors.push(...azureRequirements(path, m))
  errors.push(...placeholdersLeft(path, m))
  if (m.azure_deployment_name && info.family !== 'azure') {
    errors.push(`${path}.azure_deployment_name: only allowed with model_provider azure`)
  }
  if (m.auth_method === 'azure_managed_identity' && info.family !== 'azure') {
    errors.push(`${path}.auth_method: azure_managed_identity only works with model_provider azure`)
  }
  if (info.family === 'local' && group === 'completion_models') {
    errors.push(`${path}.model_provider: local is an embedding provider; chat models need another provider`)
  }
  if (group === 'embedding_models' && !info.embeddings) {
    errors.push(
      `${path}.model_provider: ${provider} has no embedding models (use e.g. openai, gemini, ollama, bedrock, mistral or local)`,
    )
  }
  if (info.family === 'openai' && info.defaultApiBase === undefined && !apiBaseSet) {
    errors.push(`${path}.api_base: required for model_provider ${provider} (the URL of its OpenAI-compatible /v1 API)`)
  }
  if (pool !== undefined && (info.family === 'local' || info.family === 'bedrock' || info.family === 'vertex_ai')) {
    errors.push(`${path}.api_base: a list of endpoints is not supported for model_provider ${provider}`)
  }
  const urls = pool?.map((e) => e.api_base) ?? (typeof m.api_base === 'string' ? [m.api_base] : [])
  // fetch refuses URLs with user:password, and such a URL would end up in messages: say so up front.
  if (urls.some((u) => /^[a-z][a-z0-9+.-]*:\/\/[^/]*@/i.test(u.trim())))
    errors.push(`${path}.api_base: remove the user:password from the URL (not supported); put the key in api_key`)
  errors.push(...keyRules(path, m, provider, apiBaseSet))
  return errors
}

/** Whether the model has the key its provider needs (keyless servers and managed identity need none). */
function keyRules(path: string, m: ModelSettings, provider: string, apiBaseSet: boolean): string[] {
  const info = providerInfo(provider)
  if (info.keyless || m.auth_method === 'azure_managed_identity') return []
  // Any OpenAI-compatible server at an explicit api_base may be keyless: api_key null says so.
  if (info.family === 'openai' && apiBaseSet && m.api_key === null) return []
  const pool = Array.isArray(m.api_base) ? m.api_base : undefined
  if ((m.api_key ?? '').trim() !== '') return []
  if (pool?.every((e) => (e.api_key ?? '').trim() !== '')) return []
  const variable = info.keyVariable === undefined ? '' : ` or ${info.keyVariable} in the environment or .env`
  return [
    `${path}.api_key: expected a non-empty API key (e.g. api_key: \${GRAPHRAG_API_KEY} with the key in .env${variable}; api_key: null for a keyless server at api_base)`,
  ]
}

// What to put in place of each `<your …>` placeholder that graphrag init writes.
const PLACEHOLDER_HINTS = {
  api_base:
    'put the URL of your server there (Azure: your resource endpoint, https://NAME.openai.azure.com, from Azure portal → your resource → Keys and Endpoint)',
  api_version: 'put an API version there, e.g. 2024-10-21',
  azure_deployment_name: "put the name you gave this model's deployment there (Azure AI Foundry → Deployments)",
  model: 'put the name of the model your server serves there',
} as const

/** Values still holding a placeholder `graphrag init` wrote: each named with what to fill in. */
function placeholdersLeft(path: string, m: ModelSettings): string[] {
  return Object.entries(PLACEHOLDER_HINTS).flatMap(([key, hint]) => {
    const value = m[key as keyof typeof PLACEHOLDER_HINTS]
    return typeof value === 'string' && PLACEHOLDER.test(value)
      ? [`${path}.${key}: still the placeholder "${value}" that graphrag init wrote; ${hint}`]
      : []
  })
}

/** Azure OpenAI needs an endpoint and an API version; the SDK's own error for a missing version names an env var instead. */
function azureRequirements(path: string, m: ModelSettings): string[] {
  const errors: string[] = []
  if (!m.api_base) errors.push(`${path}.api_base: required for model_provider azure`)
  if (!m.api_version?.trim())
    errors.push(`${path}.api_version: required for model_provider azure (e.g. api_version: 2024-10-21)`)
  return errors
}

const promptProportions: Rule = (s) =>
  s.local_search.text_unit_prop + s.local_search.community_prop > 1
    ? ['local_search: text_unit_prop + community_prop must not exceed 1']
    : []

const chunkGraphBatchOverlap: Rule = (s) =>
  s.chunk_graph.batch_overlap >= s.chunk_graph.batch_size
    ? [
        `chunk_graph.batch_overlap: expected less than chunk_graph.batch_size (${s.chunk_graph.batch_size}), got ${s.chunk_graph.batch_overlap}`,
      ]
    : []

/** Each blob or s3 storage setting names its container or bucket and how to sign in. */
const remoteStorageRules: Rule = (s) => {
  const errors: string[] = []
  const storages = [
    ['input_storage', s.input_storage],
    ['output_storage', s.output_storage],
    ['update_output_storage', s.update_output_storage],
    ['cache.storage', s.cache.storage],
    ['reporting', s.reporting],
  ] as const
  for (const [path, st] of storages) {
    const set = (v: string | null): boolean => (v ?? '').trim() !== ''
    if (st.type === 'blob') {
      if (!set(st.container_name)) errors.push(`${path}.container_name: blob storage needs the container name`)
      if (!set(st.connection_string) && !set(st.account_url))
        errors.push(`${path}.connection_string: blob storage needs connection_string or account_url`)
    }
    if (st.type === 's3' && !set(st.bucket)) errors.push(`${path}.bucket: s3 storage needs the bucket name`)
    if (st.type !== 's3')
      for (const key of ['bucket', 'region', 'endpoint_url'] as const)
        if (set(st[key])) errors.push(`${path}.${key}: only s3 storage uses it (type is ${st.type})`)
  }
  const db = s.vector_store.db_uri
  if (/^az:\/\//.test(db) && s.output_storage.type !== 'blob')
    errors.push('vector_store.db_uri: an az:// URI takes its credentials from output_storage, which must be type blob')
  if (/^s3:\/\//.test(db) && s.output_storage.type !== 's3')
    errors.push(
      'vector_store.db_uri: an s3:// URI takes its endpoint and region from output_storage, which must be type s3',
    )
  return errors
}

export const RULES: readonly Rule[] = [
  chunkOverlapBelowSize,
  remoteStorageRules,
  modelProviderRules,
  promptProportions,
  chunkGraphBatchOverlap,
]
