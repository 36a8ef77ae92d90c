/** Anthropic, Gemini, Vertex AI and Bedrock through the Vercel AI SDK provider packages (loaded on demand). */
import { createAmazonBedrock } from '@ai-sdk/amazon-bedrock'
import { createAnthropic } from '@ai-sdk/anthropic'
import { createGoogleGenerativeAI } from '@ai-sdk/google'
import { createVertex } from '@ai-sdk/google-vertex'
import type { SharedV3ProviderOptions } from '@ai-sdk/provider'
import { aiSdkTransport } from './ai-sdk-transport.js'
import type { EndpointTransportOptions } from './provider-transport.js'
import { providerInfo } from './providers.js'
import type { ChatTransport, EmbedTransport } from './transport.js'

interface Shared {
  endpoint: string
  timeoutMs: number
  secrets: readonly string[]
  countTokens: (text: string) => number
}

export function aiSdkProviderTransport(
  family: 'anthropic' | 'gemini' | 'vertex_ai' | 'bedrock',
  options: EndpointTransportOptions,
  shared: Shared,
): ChatTransport & EmbedTransport {
  const apiBase = options.apiBase ?? providerInfo(family).defaultApiBase
  if (family === 'anthropic') {
    const sdk = createAnthropic({ apiKey: options.apiKey, baseURL: apiBase })
    return aiSdkTransport({
      ...shared,
      language: sdk.languageModel(options.model),
      embedding: undefined,
      jsonMode: false,
      embeddingOptions: undefined,
    })
  }
  const key = options.apiKey === undefined ? {} : { apiKey: options.apiKey }
  // Gemini and Vertex AI take the JSON mime type and name the dimension alike; Bedrock has no JSON mode.
  const [sdk, jsonMode, dimension] =
    family === 'gemini'
      ? [createGoogleGenerativeAI({ ...key, baseURL: apiBase }), true, ['google', 'outputDimensionality'] as const]
      : family === 'vertex_ai'
        ? [
            createVertex({
              ...key,
              baseURL: options.apiBase,
              project: process.env.VERTEXAI_PROJECT ?? process.env.GOOGLE_VERTEX_PROJECT,
              location: process.env.VERTEXAI_LOCATION ?? process.env.GOOGLE_VERTEX_LOCATION,
            }),
            true,
            ['google', 'outputDimensionality'] as const,
          ]
        : // Bedrock: credentials and region come from the AWS variables (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY,
          // AWS_SESSION_TOKEN, AWS_REGION or LiteLLM's AWS_REGION_NAME); api_key is a Bedrock API key.
          [
            createAmazonBedrock({
              ...key,
              baseURL: options.apiBase,
              region: process.env.AWS_REGION_NAME ?? process.env.AWS_REGION ?? 'us-east-1',
            }),
            false,
            ['bedrock', 'dimensions'] as const,
          ]
  return aiSdkTransport({
    ...shared,
    language: sdk.languageModel(options.model),
    embedding: sdk.embeddingModel(options.model),
    jsonMode,
    embeddingOptions: dimensionOption(dimension[0], dimension[1], options.dimensions),
  })
}

function dimensionOption(
  provider: string,
  key: string,
  dimensions: number | undefined,
): SharedV3ProviderOptions | undefined {
  return dimensions === undefined ? undefined : { [provider]: { [key]: dimensions } }
}
