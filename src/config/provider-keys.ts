/**
 * A model whose api_key is not set takes its provider's own key variable, as LiteLLM does
 * (`ANTHROPIC_API_KEY`, `GROQ_API_KEY`, …), from the environment or the .env beside the settings.
 */
import { isPlainObject } from './fields.js'
import { isProviderName, providerInfo, resolveProvider } from '../llm/providers.js'

/** Fills `api_key` in place; returns `group.id` → the variable each key came from. */
export function fillProviderKeys(
  raw: Record<string, unknown>,
  env: Readonly<Record<string, string | undefined>>,
): Record<string, string> {
  const origins: Record<string, string> = {}
  for (const group of ['completion_models', 'embedding_models']) {
    const models = raw[group]
    if (!isPlainObject(models)) continue
    for (const [id, m] of Object.entries(models)) {
      if (!isPlainObject(m) || (m.api_key !== undefined && m.api_key !== null)) continue
      const declared = typeof m.model_provider === 'string' ? m.model_provider : 'openai'
      const model = typeof m.model === 'string' ? m.model : ''
      const { provider } = resolveProvider(declared, model, m.api_base !== undefined && m.api_base !== null)
      if (!isProviderName(provider)) continue
      const variable = providerInfo(provider).keyVariable
      const value = variable === undefined ? undefined : env[variable]
      // An OpenAI-compatible server at an explicit api_base keeps working without a key (api_key: null).
      if (variable === undefined || value === undefined || value.trim() === '') continue
      if (provider === 'openai' && m.api_key === null && m.api_base !== undefined && m.api_base !== null) continue
      m.api_key = value
      origins[`${group}.${id}`] = `environment variable ${variable}`
    }
  }
  return origins
}
