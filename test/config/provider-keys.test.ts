/** A model without api_key takes its provider's own key variable (environment or .env), as LiteLLM does. */
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/index.js'
import { testdir } from '../support/testdir.js'

const SETTINGS = `completion_models:
  default_completion_model:
    model_provider: groq
    model: llama-3.3-70b-versatile
  second:
    model: mistral/mistral-small-latest
  local_server:
    model_provider: openai
    model: qwen3
    api_base: http://127.0.0.1:8000/v1
    api_key: null
`

describe('provider key variables', () => {
  it('fills api_key from GROQ_API_KEY and MISTRAL_API_KEY (.env or environment) and says where it came from', async () => {
    const root = await testdir({ 'settings.yaml': SETTINGS, '.env': 'MISTRAL_API_KEY=from-dotenv\n' })
    const { settings, apiKeyOrigins } = loadConfig({ root, env: { GROQ_API_KEY: 'gsk-env', OPENAI_API_KEY: 'sk-x' } })
    expect(settings.completion_models.default_completion_model!.api_key).toBe('gsk-env')
    expect(settings.completion_models.second!.api_key).toBe('from-dotenv')
    // A keyless OpenAI-compatible server stays keyless even when OPENAI_API_KEY is set.
    expect(settings.completion_models.local_server!.api_key).toBeNull()
    expect(apiKeyOrigins['completion_models.default_completion_model']).toBe('environment variable GROQ_API_KEY')
    expect(apiKeyOrigins['completion_models.second']).toBe('environment variable MISTRAL_API_KEY')
  })

  it('without the variable: one error naming it', async () => {
    const root = await testdir({ 'settings.yaml': SETTINGS })
    expect(() => loadConfig({ root, env: {} })).toThrow(/default_completion_model\.api_key: .*GROQ_API_KEY/)
  })
})
