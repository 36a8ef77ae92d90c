/** Cross-field rules applied after every key parsed; each returns error messages with key paths. */
import type { RawSettings } from './schema.js'

type Rule = (settings: RawSettings) => string[]

const chunkOverlapBelowSize: Rule = (s) =>
  s.chunking.overlap >= s.chunking.size
    ? [`chunking.overlap: expected less than chunking.size (${s.chunking.size}), got ${s.chunking.overlap}`]
    : []

const modelProviderRules: Rule = (s) => {
  const errors: string[] = []
  for (const [group, models] of [['completion_models', s.completion_models], ['embedding_models', s.embedding_models]] as const) {
    for (const [id, m] of Object.entries(models)) {
      const path = `${group}.${id}`
      if (m.model_provider === 'azure' && !m.api_base) errors.push(`${path}.api_base: required for model_provider azure`)
      if (m.azure_deployment_name && m.model_provider !== 'azure') {
        errors.push(`${path}.azure_deployment_name: only allowed with model_provider azure`)
      }
      if (m.model_provider === 'local' && group === 'completion_models') {
        errors.push(`${path}.model_provider: local is an embedding provider; chat models need openai or azure`)
      }
      if (m.model_provider !== 'local' && m.auth_method === 'api_key' && (m.api_key ?? '').trim() === '') {
        errors.push(`${path}.api_key: expected a non-empty API key (e.g. api_key: \${GRAPHRAG_API_KEY} with the key in .env)`)
      }
      if (m.auth_method === 'azure_managed_identity') {
        errors.push(`${path}.auth_method: azure_managed_identity is not supported yet; use api_key`)
      }
    }
  }
  return errors
}

const promptProportions: Rule = (s) =>
  s.local_search.text_unit_prop + s.local_search.community_prop > 1
    ? ['local_search: text_unit_prop + community_prop must not exceed 1']
    : []

export const RULES: readonly Rule[] = [chunkOverlapBelowSize, modelProviderRules, promptProportions]
