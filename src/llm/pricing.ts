/** Built-in USD prices per million tokens for common OpenAI models, used for cost estimates. */

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
}

/**
 * The price of a model: the override when given, else the longest built-in name the model starts
 * with (so dated snapshots such as gpt-4.1-mini-2025-04-14 match), else undefined (cost unknown).
 */
export function priceFor(model: string, override?: Pricing): Pricing | undefined {
  if (override !== undefined) return override
  const name = model.toLowerCase().split('/').pop() ?? ''
  let best: string | undefined
  for (const key of Object.keys(PRICES)) {
    if ((name === key || name.startsWith(`${key}-`)) && (best === undefined || key.length > best.length)) best = key
  }
  return best === undefined ? undefined : PRICES[best]
}

/**
 * The price of a configured model: `model_provider: local` (the offline embedder) runs on this
 * machine and costs nothing; any other provider is priced by `priceFor`.
 */
export function priceOfModel(provider: string, model: string, override: Pricing | undefined): Pricing | undefined {
  return provider === 'local' ? { inputPer1m: 0, outputPer1m: 0 } : priceFor(model, override)
}

export function costUsd(price: Pricing, promptTokens: number, completionTokens: number): number {
  return (promptTokens * price.inputPer1m + completionTokens * price.outputPer1m) / 1_000_000
}
