/** Cross-field rules applied after every key parsed; each returns error messages with key paths. */
import type { ModelSettings, RawSettings } from './schema.js'

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
    for (const [id, m] of Object.entries(models)) {
      const path = `${group}.${id}`
      if (m.model_provider === 'azure') errors.push(...azureRequirements(path, m))
      if (m.azure_deployment_name && m.model_provider !== 'azure') {
        errors.push(`${path}.azure_deployment_name: only allowed with model_provider azure`)
      }
      if (m.model_provider === 'local' && group === 'completion_models') {
        errors.push(`${path}.model_provider: local is an embedding provider; chat models need openai or azure`)
      }
      // A local OpenAI-compatible server (Ollama, vLLM, LM Studio) needs no key: api_key null with an api_base is fine.
      const keyless = m.model_provider === 'openai' && (m.api_base ?? '').trim() !== '' && m.api_key === null
      if (m.model_provider !== 'local' && !keyless && (m.api_key ?? '').trim() === '') {
        errors.push(
          `${path}.api_key: expected a non-empty API key (e.g. api_key: \${GRAPHRAG_API_KEY} with the key in .env; api_key: null for a keyless server at api_base)`,
        )
      }
    }
  }
  return errors
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

export const RULES: readonly Rule[] = [
  chunkOverlapBelowSize,
  modelProviderRules,
  promptProportions,
  chunkGraphBatchOverlap,
]
