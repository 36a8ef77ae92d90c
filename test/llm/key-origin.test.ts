import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChatModel, modelOptionsFromSettings } from '../../src/llm/index.js'
import type { ModelSettingsShape } from '../../src/llm/settings.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'

const settings = (apiBase: string, apiKey: string | null): ModelSettingsShape => ({
  model_provider: 'openai' as const,
  model: 'gpt-4.1',
  api_key: apiKey,
  api_base: apiBase,
  api_version: null,
  azure_deployment_name: null,
  call_args: {},
  retry: { type: 'exponential_backoff' as const, max_retries: 0, base_delay: 2, jitter: false, max_delay: null },
  rate_limit: null,
  concurrent_requests: null,
  request_timeout: 30,
  encoding_model: null,
  dimensions: null,
  pricing: null,
})

describe('a key the provider rejects, when the caller does not know where the key came from (graphrag serve)', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm()
  })
  afterAll(() => fake?.close())

  it('is not explained as "no API key is configured" when one was sent', async () => {
    const options = modelOptionsFromSettings('completion_models', 'm', settings(fake.baseUrl, 'bad-key-1'), {
      concurrentRequests: 1,
      keyOrigin: undefined,
    })
    const call = createChatModel(options).complete({ messages: [{ role: 'user', content: 'hi' }] })
    await expect(call).rejects.toThrow(
      'completion_models.m: the provider rejected the API key (HTTP 401); the key comes from completion_models.m.api_key in the settings',
    )
  })

  it('still says so when no key was configured', () => {
    const options = modelOptionsFromSettings('completion_models', 'm', settings(fake.baseUrl, null), {
      concurrentRequests: 1,
      keyOrigin: undefined,
    })
    expect(options.keyOrigin).toBeUndefined()
  })
})
