/** Model options pointing at a fake server, with fast retries, for the LLM layer tests. */
import type { ModelOptions } from '../../src/llm/index.js'
import type { FakeLlm } from '../support/fake-llm/index.js'

export function fakeOptions(fake: FakeLlm, overrides: Partial<ModelOptions> = {}): ModelOptions {
  return {
    id: 'default_completion_model',
    settingsPath: 'completion_models.default_completion_model',
    provider: 'openai',
    model: 'gpt-4.1-mini',
    apiKey: 'test-key',
    apiBase: fake.baseUrl,
    apiVersion: undefined,
    azureDeploymentName: undefined,
    callArgs: {},
    retry: { type: 'exponential_backoff', maxRetries: 3, baseDelay: 0.005, jitter: false, maxDelay: 0.05 },
    concurrentRequests: 8,
    rateLimit: undefined,
    requestTimeoutSeconds: 5,
    encodingModel: undefined,
    dimensions: undefined,
    pricing: undefined,
    keyOrigin: 'environment variable GRAPHRAG_API_KEY',
    ...overrides,
  }
}

export const HELLO = [{ role: 'user' as const, content: 'This is an LLM connectivity test. Say Hello World' }]
