/** `completion_models` / `embedding_models`: keyed as in Microsoft GraphRAG v3, plus our own extras. */
import { bool, freeMap, int, mapOf, num, oneOf, optionalNum, optionalSection, optionalStr, required, section } from '../fields.js'

export const MODEL_PROVIDERS = ['openai', 'azure', 'local'] as const

const retry = optionalSection(
  {
    type: oneOf(['exponential_backoff', 'immediate'], 'exponential_backoff', 'Backoff strategy between attempts.'),
    max_retries: int(7, 'Retries after the first attempt (429, 5xx, timeouts, connection resets).', { min: 0 }),
    base_delay: num(2, 'Backoff multiplier in seconds; the wait doubles (×base_delay) each retry, plus jitter.', { min: 0 }),
    jitter: bool(true, 'Add up to one second of random jitter to each wait.'),
    max_delay: optionalNum('Upper bound of one wait in seconds (null = unbounded).', { min: 0 }),
  },
  'Retry policy. Retry-After headers from the server are honoured.',
)

const rateLimit = optionalSection(
  {
    type: oneOf(['sliding_window'], 'sliding_window', 'Rate limiter kind.'),
    period_in_seconds: int(60, 'Length of the sliding window.', { min: 1 }),
    requests_per_period: optionalNum('Maximum requests per window (null = unlimited).', { min: 1 }),
    tokens_per_period: optionalNum('Maximum prompt + completion tokens per window (null = unlimited).', { min: 1 }),
  },
  'Client-side rate limit for this model.',
)

const pricing = optionalSection(
  {
    input_per_1m: num(0, 'USD per million prompt tokens.', { min: 0 }),
    output_per_1m: num(0, 'USD per million completion tokens.', { min: 0 }),
  },
  'Price override for cost estimates (built-in prices cover common OpenAI models).',
)

export const modelShape = {
  type: oneOf(['litellm', 'mock'], 'litellm', 'Model implementation (accepted for compatibility; always the OpenAI client here).', { hidden: true }),
  model_provider: oneOf(MODEL_PROVIDERS, 'openai', 'openai (api.openai.com or any OpenAI-compatible api_base: Ollama, vLLM, LM Studio), azure, or local (offline hashing embedder).'),
  model: required('Model name (deployment name for Azure unless azure_deployment_name is set).'),
  api_key: optionalStr('API key; use ${GRAPHRAG_API_KEY} and keep the key in .env.'),
  api_base: optionalStr('Base URL, e.g. http://localhost:11434/v1 for Ollama; required for Azure.'),
  api_version: optionalStr('Azure OpenAI API version.'),
  auth_method: oneOf(['api_key', 'azure_managed_identity'], 'api_key', 'How to authenticate.'),
  azure_deployment_name: optionalStr('Azure deployment name (azure only).'),
  call_args: freeMap('Extra request parameters sent with every call (temperature, max_tokens, ...).'),
  retry,
  rate_limit: rateLimit,
  concurrent_requests: optionalNum('Parallel requests to this model (null = the top-level concurrent_requests).', { min: 1 }),
  request_timeout: num(180, 'Seconds before one request is abandoned and retried.', { min: 1 }),
  encoding_model: optionalStr('Tokenizer for budgets and rate limits (null = chosen from the model family).'),
  dimensions: optionalNum('Embedding size: the local embedder\'s dimension, or requested from the provider when set.', { min: 1 }),
  pricing,
  metrics: freeMap('Accepted for compatibility with Microsoft GraphRAG settings.', { hidden: true }),
  mock_responses: freeMap('Accepted for compatibility with Microsoft GraphRAG settings.', { hidden: true }),
}

export const completionModels = mapOf(modelShape, 'Chat models by id; workflows refer to them by completion_model_id.')
export const embeddingModels = mapOf(modelShape, 'Embedding models by id; embed_text and search refer to them by embedding_model_id.')

export type ModelSettings = ReturnType<typeof section<typeof modelShape>>['default']
