/**
 * A pool endpoint's own api_key wins over the model's; an endpoint without one sends the model's
 * (issue 46, item 3: swapping the precedence went unnoticed). Checked on the wire, per server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createChatModel, createEndpointPool, modelOptionsFromSettings } from '../../src/llm/index.js'
import type { ModelSettingsShape } from '../../src/llm/settings.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'

describe('api keys of a model pool', () => {
  let own: FakeLlm
  let inherited: FakeLlm
  beforeAll(async () => {
    ;[own, inherited] = await Promise.all([startFakeLlm(), startFakeLlm()])
  })
  afterAll(async () => {
    await Promise.all([own?.close(), inherited?.close()])
  })

  it('sends the endpoint key where the endpoint has one and the model key where it has none', async () => {
    const endpoint = (apiBase: string, apiKey: string | null) => ({
      api_base: apiBase,
      api_key: apiKey,
      concurrent_requests: 2,
      requests_per_minute: null,
      tokens_per_minute: null,
      weight: 1,
    })
    const settings = {
      model_provider: 'openai',
      model: 'gpt-4.1',
      api_key: 'model-key',
      api_base: [endpoint(own.baseUrl, 'endpoint-key'), endpoint(inherited.baseUrl, null)],
      api_version: null,
      azure_deployment_name: null,
      call_args: {},
      retry: { type: 'exponential_backoff', max_retries: 0, base_delay: 2, jitter: false, max_delay: null },
      rate_limit: null,
      concurrent_requests: null,
      request_timeout: 30,
      encoding_model: null,
      dimensions: null,
      pricing: null,
    } as unknown as ModelSettingsShape
    const options = modelOptionsFromSettings('completion_models', 'm', settings, {
      concurrentRequests: 4,
      keyOrigin: undefined,
    })
    const model = createChatModel(options, { pool: createEndpointPool(options) })
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => model.complete({ messages: [{ role: 'user', content: `question ${i}` }] })),
    )
    expect(own.requests.length).toBeGreaterThan(0)
    expect(inherited.requests.length).toBeGreaterThan(0)
    expect(new Set(own.requests.map((r) => r.headers.authorization))).toEqual(new Set(['Bearer endpoint-key']))
    expect(new Set(inherited.requests.map((r) => r.headers.authorization))).toEqual(new Set(['Bearer model-key']))
  })
})
