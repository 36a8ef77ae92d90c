/** Which providers sell batches, and the Batch API of a model (undefined: it runs synchronously). */
import { azureTokenProvider } from '../azure-identity.js'
import { providerInfo } from '../providers.js'
import type { ModelOptions } from '../settings.js'
import { openAiBatchApi } from './openai.js'
import type { BatchApi } from './types.js'

/** What a batched token costs next to a synchronous one: OpenAI, Azure (global batch), Anthropic and Gemini all charge half. */
export const BATCH_PRICE_FACTOR = 0.5

/** Providers with a Batch API; the OpenAI-compatible others (local servers, Groq, …) run synchronously. */
const BATCH_PROVIDERS: ReadonlySet<string> = new Set(['openai', 'azure'])

export function hasBatchApi(provider: string): boolean {
  return BATCH_PROVIDERS.has(provider)
}

export function batchApiFor(options: ModelOptions): BatchApi | undefined {
  if (!hasBatchApi(options.provider) || options.pool !== undefined) return undefined
  const family = providerInfo(options.provider).family
  if (family !== 'openai' && family !== 'azure') return undefined
  return openAiBatchApi({
    provider: family,
    apiBase: options.apiBase ?? providerInfo(options.provider).defaultApiBase,
    apiKey: options.apiKey,
    apiVersion: options.apiVersion,
    tokenProvider:
      family === 'azure' && options.authMethod === 'azure_managed_identity' ? azureTokenProvider() : undefined,
  })
}
