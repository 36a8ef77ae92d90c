/** Built-in USD prices per million tokens for common models of the supported providers, used for cost estimates. */

export interface Pricing {
  inputPer1m: number
  outputPer1m: number
}

// Public list prices (standard tier) at the time of writing; settings `pricing` overrides them.
const PRICES: Readonly<Record<string, Pricing>> = {
  'gpt-4.1': { inputPer1m: 2.0, outputPer1m: 8.0 },
  'gpt-4.1-mini': { inputPer1m: 0.4, outputPer1m: 1.6 },
  'gpt-4.1-nano': { inputPer1m: 0.1, outputPer1m: 0.4 },
  'gpt-4o': { inputPer1m: 2.5, outputPer1m: 10.0 },
  'gpt-4o-mini': { inputPer1m: 0.15, outputPer1m: 0.6 },
  'gpt-5': { inputPer1m: 1.25, outputPer1m: 10.0 },
  'gpt-5-mini': { inputPer1m: 0.25, outputPer1m: 2.0 },
  'gpt-5-nano': { inputPer1m: 0.05, outputPer1m: 0.4 },
  o3: { inputPer1m: 2.0, outputPer1m: 8.0 },
  'o3-mini': { inputPer1m: 1.1, outputPer1m: 4.4 },
  'o4-mini': { inputPer1m: 1.1, outputPer1m: 4.4 },
  'text-embedding-3-small': { inputPer1m: 0.02, outputPer1m: 0 },
  'text-embedding-3-large': { inputPer1m: 0.13, outputPer1m: 0 },
  'text-embedding-ada-002': { inputPer1m: 0.1, outputPer1m: 0 },
  // Anthropic (also on Bedrock and Vertex AI under the same names).
  'claude-opus-4': { inputPer1m: 15.0, outputPer1m: 75.0 },
  'claude-opus-4-1': { inputPer1m: 15.0, outputPer1m: 75.0 },
  'claude-opus-4-5': { inputPer1m: 5.0, outputPer1m: 25.0 },
  'claude-sonnet-4': { inputPer1m: 3.0, outputPer1m: 15.0 },
  'claude-sonnet-4-5': { inputPer1m: 3.0, outputPer1m: 15.0 },
  'claude-3-7-sonnet': { inputPer1m: 3.0, outputPer1m: 15.0 },
  'claude-3-5-sonnet': { inputPer1m: 3.0, outputPer1m: 15.0 },
  'claude-haiku-4-5': { inputPer1m: 1.0, outputPer1m: 5.0 },
  'claude-3-5-haiku': { inputPer1m: 0.8, outputPer1m: 4.0 },
  'claude-3-haiku': { inputPer1m: 0.25, outputPer1m: 1.25 },
  // Google Gemini (AI Studio and Vertex AI, standard tier, prompts up to 200k tokens).
  'gemini-2.5-pro': { inputPer1m: 1.25, outputPer1m: 10.0 },
  'gemini-2.5-flash': { inputPer1m: 0.3, outputPer1m: 2.5 },
  'gemini-2.5-flash-lite': { inputPer1m: 0.1, outputPer1m: 0.4 },
  'gemini-2.0-flash': { inputPer1m: 0.1, outputPer1m: 0.4 },
  'gemini-2.0-flash-lite': { inputPer1m: 0.075, outputPer1m: 0.3 },
  'gemini-embedding-001': { inputPer1m: 0.15, outputPer1m: 0 },
  // Mistral, DeepSeek, xAI, Groq-hosted Llama, Perplexity, Amazon Titan embeddings.
  'mistral-large': { inputPer1m: 2.0, outputPer1m: 6.0 },
  'mistral-medium': { inputPer1m: 0.4, outputPer1m: 2.0 },
  'mistral-small': { inputPer1m: 0.1, outputPer1m: 0.3 },
  'mistral-embed': { inputPer1m: 0.1, outputPer1m: 0 },
  'deepseek-chat': { inputPer1m: 0.28, outputPer1m: 0.42 },
  'deepseek-reasoner': { inputPer1m: 0.28, outputPer1m: 0.42 },
  'grok-4': { inputPer1m: 3.0, outputPer1m: 15.0 },
  'grok-3': { inputPer1m: 3.0, outputPer1m: 15.0 },
  'grok-3-mini': { inputPer1m: 0.3, outputPer1m: 0.5 },
  'llama-3.3-70b-versatile': { inputPer1m: 0.59, outputPer1m: 0.79 },
  'llama-3.1-8b-instant': { inputPer1m: 0.05, outputPer1m: 0.08 },
  sonar: { inputPer1m: 1.0, outputPer1m: 1.0 },
  'sonar-pro': { inputPer1m: 3.0, outputPer1m: 15.0 },
  'titan-embed-text-v2': { inputPer1m: 0.02, outputPer1m: 0 },
}

/** Bedrock model ids carry a vendor (and cross-region) prefix: `us.anthropic.claude-3-5-sonnet-…`. */
const BEDROCK_PREFIX = /^(?:(?:us|eu|apac|global)\.)?(?:anthropic|amazon|meta|mistral|cohere|deepseek)\./

/** Providers that run on the user's own machine: their tokens cost nothing. */
const FREE_PROVIDERS = new Set(['local', 'ollama', 'lm_studio'])

/**
 * The price of a model: the override when given, else the longest built-in name the model starts
 * with (so dated snapshots such as gpt-4.1-mini-2025-04-14 match), else undefined (cost unknown).
 */
export function priceFor(model: string, override?: Pricing): Pricing | undefined {
  if (override !== undefined) return override
  const name = (model.toLowerCase().split('/').pop() ?? '').replace(BEDROCK_PREFIX, '')
  let best: string | undefined
  for (const key of Object.keys(PRICES)) {
    if (
      (name === key || name.startsWith(`${key}-`) || name.startsWith(`${key}:`)) &&
      (best === undefined || key.length > best.length)
    )
      best = key
  }
  return best === undefined ? undefined : PRICES[best]
}

/**
 * The price of a configured model: the override when given; the offline embedder and local runtimes
 * (Ollama, LM Studio) run on this machine and cost nothing; any other provider is priced by `priceFor`
 * (undefined for an unknown model: the summaries then say "price unknown", never $0).
 */
export function priceOfModel(provider: string, model: string, override: Pricing | undefined): Pricing | undefined {
  if (override !== undefined) return override
  return FREE_PROVIDERS.has(provider) ? { inputPer1m: 0, outputPer1m: 0 } : priceFor(model)
}

export function costUsd(price: Pricing, promptTokens: number, completionTokens: number): number {
  return (promptTokens * price.inputPer1m + completionTokens * price.outputPer1m) / 1_000_000
}
