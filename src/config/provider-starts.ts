/**
 * What `graphrag init --provider NAME` writes for each provider: a chat model that provider serves,
 * an embedding model it has (or, for providers without embeddings, the local hashing embedder), the
 * vector size that embedding model returns, fewer parallel requests for servers on the user's own
 * machine, and placeholders for what only the user knows (an Azure endpoint and deployment names).
 * Placeholders are written as `<…>` and the settings rules name each one still left in place.
 */

export interface ProviderStart {
  chat: string
  /** The embedding model; `local` means the offline hashing embedder (provider `local`). */
  embedding: { model: string; local?: true }
  /** The size of the embedding model's vectors (vector_store.vector_size). */
  vectorSize: number
  /** Parallel requests per model: a local server runs one model on one machine. */
  concurrentRequests?: number
  /** Values the user must fill in: api_base, and for Azure api_version and the deployment names. */
  apiBase?: string
  apiVersion?: string
  deployments?: { chat: string; embedding: string }
  /** Comment lines for the top of settings.yaml, saying why a choice was made and what to fill in. */
  notes: readonly string[]
}

const LOCAL_EMBEDDER = { model: 'hashing-384', local: true } as const
const localEmbedderNote = (provider: string) =>
  `# ${provider} has no embedding models: embeddings use the local hashing embedder (hashing-384, in this process, no API calls). For better search quality put an embedding model of another provider (openai, gemini, ollama, …) under embedding_models and set vector_store.vector_size to its size.`
const localServerNote = (provider: string) =>
  `# ${provider} runs on your machine: concurrent_requests is 4 per model so one server is not flooded; pull or load the models named below first.`

const withLocalEmbedder = (provider: string, chat: string, notes: readonly string[] = []): ProviderStart => ({
  chat,
  embedding: LOCAL_EMBEDDER,
  vectorSize: 384,
  notes: [localEmbedderNote(provider), ...notes],
})

/** A placeholder graphrag init writes for a value only the user knows. */
export const PLACEHOLDER = /<[^<>\n]*\b(?:your|YOUR)\b[^<>\n]*>/

export const PROVIDER_STARTS: Readonly<Record<string, ProviderStart>> = {
  openai: { chat: 'gpt-4.1', embedding: { model: 'text-embedding-3-large' }, vectorSize: 3072, notes: [] },
  azure: {
    chat: 'gpt-4.1',
    embedding: { model: 'text-embedding-3-large' },
    vectorSize: 3072,
    apiBase: 'https://<your-resource-name>.openai.azure.com',
    apiVersion: '2024-10-21',
    deployments: { chat: '<your gpt-4.1 deployment name>', embedding: '<your text-embedding-3-large deployment name>' },
    notes: [
      '# Azure OpenAI: fill in the values written as <…> below: api_base is your resource endpoint (Azure portal → your resource → Keys and Endpoint),',
      '# azure_deployment_name the names you gave your chat and embedding deployments. api_version 2024-10-21 is a GA version; change it only if your resource needs another.',
    ],
  },
  anthropic: withLocalEmbedder('anthropic', 'claude-sonnet-4-5'),
  gemini: { chat: 'gemini-2.5-flash', embedding: { model: 'gemini-embedding-001' }, vectorSize: 3072, notes: [] },
  vertex_ai: { chat: 'gemini-2.5-flash', embedding: { model: 'gemini-embedding-001' }, vectorSize: 3072, notes: [] },
  bedrock: {
    chat: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
    embedding: { model: 'amazon.titan-embed-text-v2:0' },
    vectorSize: 1024,
    notes: ['# Amazon Bedrock: enable access to both models in the Bedrock console of your region first.'],
  },
  ollama: {
    chat: 'llama3.2',
    embedding: { model: 'nomic-embed-text' },
    vectorSize: 768,
    concurrentRequests: 4,
    notes: [localServerNote('ollama'), '# ollama pull llama3.2 && ollama pull nomic-embed-text'],
  },
  lm_studio: {
    chat: 'qwen2.5-7b-instruct',
    embedding: { model: 'text-embedding-nomic-embed-text-v1.5' },
    vectorSize: 768,
    concurrentRequests: 4,
    notes: [localServerNote('LM Studio')],
  },
  mistral: { chat: 'mistral-large-latest', embedding: { model: 'mistral-embed' }, vectorSize: 1024, notes: [] },
  together_ai: {
    chat: 'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    embedding: { model: 'BAAI/bge-large-en-v1.5' },
    vectorSize: 1024,
    notes: [],
  },
  fireworks_ai: {
    chat: 'accounts/fireworks/models/llama-v3p3-70b-instruct',
    embedding: { model: 'nomic-ai/nomic-embed-text-v1.5' },
    vectorSize: 768,
    notes: [],
  },
  groq: withLocalEmbedder('groq', 'llama-3.3-70b-versatile'),
  deepseek: withLocalEmbedder('deepseek', 'deepseek-chat'),
  openrouter: withLocalEmbedder('openrouter', 'openai/gpt-4.1'),
  xai: withLocalEmbedder('xai', 'grok-3'),
  perplexity: withLocalEmbedder('perplexity', 'sonar'),
  ...Object.fromEntries(
    ['vllm', 'hosted_vllm'].map((name) => [
      name,
      {
        ...withLocalEmbedder(name, '<your served model name, e.g. Qwen/Qwen2.5-7B-Instruct>', [
          '# vLLM: fill in the values written as <…> below: api_base is your server (http://HOST:8000/v1), model the name it serves.',
        ]),
        apiBase: 'http://<your-vllm-host>:8000/v1',
        concurrentRequests: 8,
      },
    ]),
  ),
}

/** Vector sizes of embedding models a user may name with --embedding. */
const KNOWN_SIZES: Readonly<Record<string, number>> = {
  'text-embedding-3-large': 3072,
  'text-embedding-3-small': 1536,
  'text-embedding-ada-002': 1536,
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
  'bge-m3': 1024,
  'gemini-embedding-001': 3072,
  'text-embedding-004': 768,
  'mistral-embed': 1024,
  'hashing-384': 384,
}

/** The vector size of an embedding model, when graphrag knows it. */
export function knownVectorSize(model: string): number | undefined {
  return KNOWN_SIZES[model.replace(/:latest$/, '')]
}
