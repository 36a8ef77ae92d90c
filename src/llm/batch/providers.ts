/** Which providers sell batches, and the Batch API of a model (undefined: it runs synchronously). */
import { azureTokenProvider } from '../azure-identity.js'
import { providerInfo } from '../providers.js'
import type { ModelOptions } from '../settings.js'
import { anthropicBatchApi } from './anthropic.js'
import { geminiBatchApi } from './gemini.js'
import { openAiBatchApi } from './openai.js'
import type { BatchApi } from './types.js'

/** What a batched token costs next to a synchronous one: OpenAI, Azure (global batch), Anthropic and Gemini all charge half. */
export const BATCH_PRICE_FACTOR = 0.5

/** Providers with a Batch API, and whether it takes embeddings; the others (local servers, Groq, …) run synchronously. */
const BATCH_PROVIDERS: ReadonlyMap<string, { embeddings: boolean }> = new Map([
  ['openai', { embeddings: true }],
  ['azure', { embeddings: true }],
  ['anthropic', { embeddings: false }],
  ['gemini', { embeddings: false }],
])

export function hasBatchApi(provider: string, kind: 'chat' | 'embedding'): boolean {
  const api = BATCH_PROVIDERS.get(provider)
  return api !== undefined && (kind === 'chat' || api.embeddings)
}

export function batchApiFor(options: ModelOptions): BatchApi | undefined {
  const kind = options.settingsPath.startsWith('embedding_models.') ? 'embedding' : 'chat'
  if (!hasBatchApi(options.provider, kind) || options.pool !== undefined) return undefined
  const info = providerInfo(options.provider)
  const apiBase = options.apiBase ?? info.defaultApiBase
  if (info.family === 'anthropic') return anthropicBatchApi({ apiBase, apiKey: options.apiKey })
  if (info.family === 'gemini') return geminiBatchApi({ apiBase, apiKey: options.apiKey })
  const family = info.family
  if (family !== 'openai' && family !== 'azure') return undefined
  return openAiBatchApi({
    provider: family,
    apiBase,
    apiKey: options.apiKey,
    apiVersion: options.apiVersion,
    tokenProvider:
      family === 'azure' && options.authMethod === 'azure_managed_identity' ? azureTokenProvider() : undefined,
  })
}
