/**
 * Builds the transport of one endpoint for any provider of providers.ts: the openai package for
 * OpenAI-compatible servers and Azure (key or Entra ID token), the Vercel AI SDK provider packages for
 * Anthropic, Gemini, Vertex AI and Bedrock. Everything above the transport is shared (see index.ts).
 */
import { azureTokenProvider } from './azure-identity.js'
import { createClient } from './client.js'
import { providerInfo } from './providers.js'
import { safeUrl } from './safe-url.js'
import type { ChatTransport, EmbedTransport } from './transport.js'

export interface EndpointTransportOptions {
  provider: string
  model: string
  apiKey: string | undefined
  apiBase: string | undefined
  apiVersion: string | undefined
  azureDeploymentName: string | undefined
  authMethod: 'api_key' | 'azure_managed_identity' | undefined
  timeoutMs: number
  dimensions: number | undefined
  countTokens: (text: string) => number
}

export function createEndpointTransport(options: EndpointTransportOptions): ChatTransport & EmbedTransport {
  const info = providerInfo(options.provider)
  const apiBase = options.apiBase ?? info.defaultApiBase
  const shared = {
    endpoint: safeUrl(apiBase ?? `${options.provider} default endpoint`),
    timeoutMs: options.timeoutMs,
    secrets: options.apiKey === undefined ? [] : [options.apiKey],
    countTokens: options.countTokens,
  }
  switch (info.family) {
    case 'openai':
    case 'azure':
      return createClient({
        provider: info.family,
        model: options.model,
        apiKey: options.apiKey,
        apiBase,
        apiVersion: options.apiVersion,
        azureDeploymentName: options.azureDeploymentName,
        azureTokenProvider:
          info.family === 'azure' && options.authMethod === 'azure_managed_identity' ? azureTokenProvider() : undefined,
        jsonMode: info.jsonMode,
        timeoutMs: options.timeoutMs,
        dimensions: options.dimensions,
        countTokens: options.countTokens,
      })
    case 'anthropic':
    case 'gemini':
    case 'vertex_ai':
    case 'bedrock': {
      // The AI SDK packages load on first use: runs that do not name these providers never pay for them.
      const family = info.family
      return deferred(() =>
        import('./ai-sdk-providers.js').then((m) => m.aiSdkProviderTransport(family, options, shared)),
      )
    }
    case 'local':
      throw new Error('model_provider local has no HTTP transport')
  }
}

/** A transport built on first use; calls wait for it. */
function deferred(build: () => Promise<ChatTransport & EmbedTransport>): ChatTransport & EmbedTransport {
  let made: Promise<ChatTransport & EmbedTransport> | undefined
  const get = () => (made ??= build())
  return {
    complete: async (call) => (await get()).complete(call),
    async *stream(call) {
      yield* (await get()).stream(call)
    },
    embed: async (call) => (await get()).embed(call),
  }
}
