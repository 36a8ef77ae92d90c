/** `completion_models` / `embedding_models`: keyed as in Microsoft GraphRAG v3, plus our own extras. */
import {
  anyList,
  bool,
  freeMap,
  ignored,
  int,
  mapOf,
  num,
  oneOf,
  optionalNum,
  optionalOneOf,
  optionalSection,
  optionalStr,
  required,
  type Field,
  type Issues,
  isPlainObject,
} from '../fields.js'
import { TIKTOKEN_ENCODINGS } from '../../llm/encodings.js'
import { PROVIDER_NAMES } from '../../llm/providers.js'
import { embeddingEos } from './embedding-eos.js'

/** One server of a model pool (`api_base` given as a list). */
export interface EndpointSettings {
  readonly api_base: string
  readonly api_key: string | null
  readonly concurrent_requests: number | null
  readonly requests_per_minute: number | null
  readonly tokens_per_minute: number | null
  readonly weight: number
}

const ENDPOINT_KEYS = [
  'api_base',
  'api_key',
  'concurrent_requests',
  'requests_per_minute',
  'tokens_per_minute',
  'weight',
]

function positive(raw: unknown, path: string, issues: Issues, integer: boolean): number | null {
  if (raw === undefined || raw === null) return null
  if (typeof raw === 'number' && raw > 0 && (!integer || Number.isInteger(raw))) return raw
  issues.errors.push(`${path}: expected a positive ${integer ? 'integer' : 'number'}, got ${JSON.stringify(raw)}`)
  return null
}

function endpointEntry(raw: unknown, path: string, issues: Issues): EndpointSettings | undefined {
  const entry = typeof raw === 'string' ? { api_base: raw } : raw
  if (!isPlainObject(entry)) {
    issues.errors.push(`${path}: expected a URL or a mapping with api_base, got ${JSON.stringify(raw)}`)
    return undefined
  }
  for (const key of Object.keys(entry))
    if (!ENDPOINT_KEYS.includes(key))
      issues.errors.push(`${path}.${key}: unknown key (expected ${ENDPOINT_KEYS.join(', ')})`)
  if (typeof entry.api_base !== 'string' || entry.api_base.trim() === '') {
    issues.errors.push(`${path}.api_base: expected a URL`)
    return undefined
  }
  if (entry.api_key !== undefined && entry.api_key !== null && typeof entry.api_key !== 'string')
    issues.errors.push(`${path}.api_key: expected a string or null`)
  return {
    api_base: entry.api_base,
    api_key: typeof entry.api_key === 'string' ? entry.api_key : null,
    concurrent_requests: positive(entry.concurrent_requests, `${path}.concurrent_requests`, issues, true),
    requests_per_minute: positive(entry.requests_per_minute, `${path}.requests_per_minute`, issues, false),
    tokens_per_minute: positive(entry.tokens_per_minute, `${path}.tokens_per_minute`, issues, false),
    weight: positive(entry.weight, `${path}.weight`, issues, false) ?? 1,
  }
}

/** `api_base`: one URL, or a list of endpoints (URLs or mappings) that form a pool. */
const apiBase: Field<string | readonly EndpointSettings[] | null> = {
  description:
    'Base URL (null = the provider default, e.g. api.openai.com; http://localhost:11434/v1 for ollama); required for Azure. A list of URLs or of {api_base, api_key, concurrent_requests, requests_per_minute, tokens_per_minute, weight} makes a pool of servers.',
  default: null,
  example: 'https://<resource>.openai.azure.com',
  parse(raw, path, issues) {
    if (raw === undefined || raw === null) return null
    if (typeof raw === 'string') return raw
    if (!Array.isArray(raw) || raw.length === 0) {
      issues.errors.push(`${path}: expected a URL or a non-empty list of endpoints, got ${JSON.stringify(raw)}`)
      return null
    }
    const entries = raw.map((e, i) => endpointEntry(e, `${path}[${i}]`, issues))
    return entries.every((e) => e !== undefined) ? entries : null
  },
}

const retry = optionalSection(
  {
    type: oneOf(
      ['exponential_backoff', 'immediate'],
      'exponential_backoff',
      'Backoff strategy between attempts (exponential_backoff or immediate).',
    ),
    max_retries: int(7, 'Retries after the first attempt (429, 5xx, timeouts, connection resets).', {
      min: 0,
      max: 100,
    }),
    base_delay: num(
      2,
      'Backoff base in seconds: the n-th retry waits base_delay^n seconds (plus jitter, up to max_delay); a Retry-After header from the server wins.',
      { min: 0, max: 60 },
    ),
    jitter: bool(true, 'Add up to one second of random jitter to each wait.'),
    max_delay: optionalNum('Upper bound of one wait in seconds (null = unbounded).', {
      min: 0,
      max: 86_400,
      example: 60,
    }),
  },
  'Retry policy (null = 7 exponential retries). Retry-After headers from the server are honoured.',
)

const rateLimit = optionalSection(
  {
    type: oneOf(['sliding_window'], 'sliding_window', 'Rate limiter kind (sliding_window is the only one).'),
    period_in_seconds: int(60, 'Length of the sliding window.', { min: 1, max: 86_400 }),
    requests_per_period: optionalNum('Maximum requests per window (null = unlimited).', {
      min: 1,
      max: 1_000_000_000,
      integer: true,
      example: 500,
    }),
    tokens_per_period: optionalNum('Maximum prompt + completion tokens per window (null = unlimited).', {
      min: 1,
      max: 1_000_000_000_000,
      integer: true,
      example: 200000,
    }),
  },
  'Client-side rate limit for this model (null = none).',
)

const pricing = optionalSection(
  {
    input_per_1m: num(0, 'USD per million prompt tokens.', { min: 0, max: 1_000_000 }),
    output_per_1m: num(0, 'USD per million completion tokens.', { min: 0, max: 1_000_000 }),
  },
  'Price override for cost estimates (null = built-in prices, which cover common OpenAI models).',
)

const modelShape = {
  type: oneOf(
    ['litellm'],
    'litellm',
    'Model implementation; litellm means the OpenAI-protocol client here (mock models are not supported).',
    { unsupported: ['mock'] },
  ),
  model_provider: oneOf(
    PROVIDER_NAMES,
    'openai',
    'LiteLLM provider name: openai (or any OpenAI-compatible api_base), azure, anthropic, gemini, vertex_ai, bedrock, ollama, groq, mistral, deepseek, openrouter, together_ai, fireworks_ai, xai, perplexity, lm_studio, hosted_vllm, or local (offline hashing embedder). See docs/models.md.',
  ),
  model: required('Model name (deployment name for Azure unless azure_deployment_name is set).'),
  api_key: optionalStr(
    "API key; use ${GRAPHRAG_API_KEY} and keep the key in .env (null = the provider's own variable, e.g. ANTHROPIC_API_KEY).",
  ),
  api_base: apiBase,
  api_version: optionalStr('Azure OpenAI API version; required for Azure.', { example: '2024-10-21' }),
  auth_method: oneOf(
    ['api_key', 'azure_managed_identity'],
    'api_key',
    'How to authenticate: api_key, or azure_managed_identity (Azure only: Entra ID tokens from the Azure credential chain, refreshed as they expire).',
  ),
  azure_deployment_name: optionalStr('Azure deployment name (azure only; null = the model name).', {
    example: 'my-gpt-4.1-deployment',
  }),
  call_args: freeMap('Extra request parameters sent with every call.', {
    example: { temperature: 0, max_tokens: 4000 },
  }),
  retry,
  rate_limit: rateLimit,
  concurrent_requests: optionalNum('Parallel requests to this model (null = the top-level concurrent_requests).', {
    min: 1,
    max: 10_000,
    integer: true,
    example: 8,
  }),
  request_timeout: num(180, 'Seconds before one request is abandoned and retried.', { min: 1, max: 86_400 }),
  encoding_model: optionalOneOf(
    TIKTOKEN_ENCODINGS,
    'tiktoken encoding for budgets and rate limits (null = chosen from the model family).',
    { example: 'o200k_base' },
  ),
  dimensions: optionalNum(
    "Embedding size: the local embedder's dimension, or requested from the provider when set (null = the model's own).",
    { min: 1, max: 100_000, integer: true, example: 1024 },
  ),
  pricing,
  batch: bool(
    false,
    'Send the index calls of this model as provider batches (OpenAI, Azure OpenAI, Anthropic, Gemini chat models): about half the price, answered within 24 h. See docs/batch.md; `graphrag index --batch` does it for every model.',
  ),
  metrics: ignored(
    freeMap('Usage metrics of Microsoft GraphRAG. Not used: graphrag reports calls, tokens and cost in stats.json.'),
    'calls, tokens and cost go to stats.json',
  ),
  mock_responses: ignored(
    anyList('Canned responses of mock models. Not used: mock models are not supported.'),
    'mock models are not supported',
  ),
  ...embeddingEos,
}

const CHAT_MODEL_EXAMPLE = {
  default_completion_model: { model_provider: 'openai', model: 'gpt-4.1', api_key: '${GRAPHRAG_API_KEY}' },
}

export const completionModels = mapOf(
  modelShape,
  'Chat models by id; workflows refer to them by completion_model_id.',
  { example: CHAT_MODEL_EXAMPLE },
)
export const embeddingModels = mapOf(
  modelShape,
  'Embedding models by id; embed_text and search refer to them by embedding_model_id.',
)
