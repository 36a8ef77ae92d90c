/**
 * Builds the transport of one endpoint for any provider of providers.ts: the openai package for
 * OpenAI-compatible servers and Azure (key or Entra ID token), the Vercel AI SDK provider packages for
 * Anthropic, Gemini, Vertex AI and Bedrock. Everything above the transport is shared (see index.ts).
 */
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createVertex } from '@ai-sdk/google-vertex'
import type { SharedV3ProviderOptions } from '@ai-sdk/provider'
import { aiSdkTransport } from './ai-sdk-transport.js'
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
    case 'anthropic': {
      const sdk = createAnthropic({ apiKey: options.apiKey, baseURL: apiBase })
      return aiSdkTransport({
        ...shared,
        language: sdk.languageModel(options.model),
        embedding: undefined,
        jsonMode: false,
        embeddingOptions: undefined,
      })
    }
    case 'gemini': {
      const sdk = createGoogleGenerativeAI({ apiKey: options.apiKey, baseURL: apiBase })
      return aiSdkTransport({
        ...shared,
        language: sdk.languageModel(options.model),
        embedding: sdk.embeddingModel(options.model),
        jsonMode: true,
        embeddingOptions: dimensionOption('google', 'outputDimensionality', options.dimensions),
      })
    }
    case 'vertex_ai': {
      const sdk = createVertex({
        baseURL: options.apiBase,
        project: process.env.VERTEXAI_PROJECT ?? process.env.GOOGLE_VERTEX_PROJECT,
        location: process.env.VERTEXAI_LOCATION ?? process.env.GOOGLE_VERTEX_LOCATION,
        ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      })
      return aiSdkTransport({
        ...shared,
        language: sdk.languageModel(options.model),
        embedding: sdk.embeddingModel(options.model),
        jsonMode: true,
        embeddingOptions: dimensionOption('google', 'outputDimensionality', options.dimensions),
      })
    }
    case 'bedrock': {
      // Credentials and region come from the AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
      // AWS_SESSION_TOKEN, AWS_REGION or LiteLLM's AWS_REGION_NAME); api_key is a Bedrock API key.
      const sdk = createAmazonBedrock({
        baseURL: options.apiBase,
        region: process.env.AWS_REGION_NAME ?? process.env.AWS_REGION ?? 'us-east-1',
        ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
      })
      return aiSdkTransport({
        ...shared,
        language: sdk.languageModel(options.model),
        embedding: sdk.embeddingModel(options.model),
        jsonMode: false,
        embeddingOptions: dimensionOption('bedrock', 'dimensions', options.dimensions),
      })
    }
    case 'local':
      throw new Error('model_provider local has no HTTP transport')
  }
}

function dimensionOption(
  provider: string,
  key: string,
  dimensions: number | undefined,
): SharedV3ProviderOptions | undefined {
  return dimensions === undefined ? undefined : { [provider]: { [key]: dimensions } }
}
