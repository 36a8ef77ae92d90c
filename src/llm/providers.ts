/**
 * The model providers a Microsoft GraphRAG v3 settings file can name (LiteLLM's provider names),
 * and how each is reached. A provider is only a transport: every one of them sits under the same
 * rate-limit, retry, validation, cache and usage layers (see index.ts).
 *
 * Families: `openai` speaks the OpenAI protocol (api.openai.com and every OpenAI-compatible server);
 * `azure` is Azure OpenAI; `anthropic`, `gemini`, `vertex_ai` and `bedrock` use the Vercel AI SDK's
 * provider packages (Messages API, generateContent, Google auth, SigV4); `local` is the offline embedder.
 */

type ProviderFamily = 'openai' | 'azure' | 'anthropic' | 'gemini' | 'vertex_ai' | 'bedrock' | 'local'

export interface ProviderInfo {
  readonly name: string
  readonly family: ProviderFamily
  /** Where calls go when api_base is not set; undefined means api_base is required (or the SDK knows). */
  readonly defaultApiBase: string | undefined
  /** The environment variable LiteLLM reads the key from; used when api_key is not set. */
  readonly keyVariable: string | undefined
  /** A server that needs no key (local runtimes). */
  readonly keyless: boolean
  readonly embeddings: boolean
  /** Whether the server accepts OpenAI `response_format`; otherwise the JSON instruction goes in the prompt. */
  readonly jsonMode: boolean
  /** How the provider is reached, for docs and diagnostics. */
  readonly via: string
}

function compatible(
  name: string,
  defaultApiBase: string | undefined,
  keyVariable: string | undefined,
  extra: { keyless?: boolean; embeddings?: boolean; jsonMode?: boolean } = {},
): ProviderInfo {
  return {
    name,
    family: 'openai',
    defaultApiBase,
    keyVariable,
    keyless: extra.keyless ?? false,
    embeddings: extra.embeddings ?? false,
    jsonMode: extra.jsonMode ?? true,
    via: 'OpenAI-compatible API (openai package)',
  }
}

const LIST: readonly ProviderInfo[] = [
  compatible('openai', 'https://api.openai.com/v1', 'OPENAI_API_KEY', { embeddings: true }),
  {
    name: 'azure',
    family: 'azure',
    defaultApiBase: undefined,
    keyVariable: 'AZURE_API_KEY',
    keyless: false,
    embeddings: true,
    jsonMode: true,
    via: 'Azure OpenAI (openai package; API key or Entra ID via @azure/identity)',
  },
  {
    name: 'anthropic',
    family: 'anthropic',
    defaultApiBase: 'https://api.anthropic.com/v1',
    keyVariable: 'ANTHROPIC_API_KEY',
    keyless: false,
    embeddings: false,
    jsonMode: false,
    via: 'Anthropic Messages API (@ai-sdk/anthropic)',
  },
  {
    name: 'gemini',
    family: 'gemini',
    defaultApiBase: 'https://generativelanguage.googleapis.com/v1beta',
    keyVariable: 'GEMINI_API_KEY',
    keyless: false,
    embeddings: true,
    jsonMode: true,
    via: 'Google AI Studio generateContent / embedContent (@ai-sdk/google)',
  },
  {
    name: 'vertex_ai',
    family: 'vertex_ai',
    defaultApiBase: undefined,
    keyVariable: undefined,
    keyless: true,
    embeddings: true,
    jsonMode: true,
    via: 'Vertex AI with Google application default credentials (@ai-sdk/google-vertex)',
  },
  {
    name: 'bedrock',
    family: 'bedrock',
    defaultApiBase: undefined,
    keyVariable: undefined,
    keyless: true,
    embeddings: true,
    jsonMode: false,
    via: 'Amazon Bedrock Converse / InvokeModel, SigV4 with the AWS credentials (@ai-sdk/amazon-bedrock)',
  },
  compatible('ollama', 'http://localhost:11434/v1', undefined, { keyless: true, embeddings: true }),
  compatible('groq', 'https://api.groq.com/openai/v1', 'GROQ_API_KEY'),
  compatible('mistral', 'https://api.mistral.ai/v1', 'MISTRAL_API_KEY', { embeddings: true }),
  compatible('deepseek', 'https://api.deepseek.com/v1', 'DEEPSEEK_API_KEY'),
  compatible('openrouter', 'https://openrouter.ai/api/v1', 'OPENROUTER_API_KEY'),
  compatible('together_ai', 'https://api.together.xyz/v1', 'TOGETHERAI_API_KEY', { embeddings: true }),
  compatible('fireworks_ai', 'https://api.fireworks.ai/inference/v1', 'FIREWORKS_AI_API_KEY', { embeddings: true }),
  compatible('xai', 'https://api.x.ai/v1', 'XAI_API_KEY'),
  // Perplexity takes json_schema but not json_object: the instruction goes in the prompt instead.
  compatible('perplexity', 'https://api.perplexity.ai', 'PERPLEXITYAI_API_KEY', { jsonMode: false }),
  compatible('lm_studio', 'http://localhost:1234/v1', undefined, { keyless: true, embeddings: true }),
  compatible('hosted_vllm', undefined, undefined, { keyless: true, embeddings: true }),
  compatible('vllm', undefined, undefined, { keyless: true, embeddings: true }),
  {
    name: 'local',
    family: 'local',
    defaultApiBase: undefined,
    keyVariable: undefined,
    keyless: true,
    embeddings: true,
    jsonMode: false,
    via: 'offline hashing embedder in this process (no HTTP)',
  },
]

const BY_NAME: ReadonlyMap<string, ProviderInfo> = new Map(LIST.map((p) => [p.name, p]))

export const PROVIDER_NAMES: readonly string[] = LIST.map((p) => p.name)

export function providerInfo(name: string): ProviderInfo {
  const info = BY_NAME.get(name)
  if (info === undefined) throw new Error(`unknown model provider ${name}`)
  return info
}

export function isProviderName(name: string): boolean {
  return BY_NAME.has(name)
}

/**
 * The provider and model a settings entry means. LiteLLM writes models as `provider/model`
 * (`anthropic/claude-sonnet-4-5`): a prefix equal to model_provider is dropped, and with the default
 * provider (openai) and no api_base a known provider prefix selects that provider. Other slashes stay
 * (`openrouter` models are `vendor/model`, Ollama tags may contain them).
 */
export function resolveProvider(
  modelProvider: string,
  model: string,
  apiBaseSet: boolean,
): { provider: string; model: string } {
  const slash = model.indexOf('/')
  if (slash <= 0) return { provider: modelProvider, model }
  const prefix = model.slice(0, slash)
  const rest = model.slice(slash + 1)
  if (prefix === modelProvider) return { provider: modelProvider, model: rest }
  if (modelProvider === 'openai' && !apiBaseSet && isProviderName(prefix) && prefix !== 'local')
    return { provider: prefix, model: rest }
  return { provider: modelProvider, model }
}
