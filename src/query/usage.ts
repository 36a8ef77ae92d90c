/**
 * Counts what a search spent: LLM calls and tokens per step (map, reduce, primer, …), embedding
 * calls, and an estimated cost, for `--json` and the library result.
 */
import { costUsd, type Pricing } from '../llm/pricing.js'
import type { ChatModel, CompletionRequest, CompletionResult, EmbeddingModel } from '../llm/types.js'

export interface StepUsage {
  calls: number
  promptTokens: number
  completionTokens: number
  failures: number
}

export interface UsageSummary extends StepUsage {
  embeddingCalls: number
  embeddingTokens: number
  /** Estimated USD (chat and embedding calls) from the models' pricing; null when tokens went to a model with no known price. */
  costUsd: number | null
  byStep: Record<string, StepUsage>
}

export class UsageMeter {
  private readonly steps = new Map<string, StepUsage>()
  /** Steps run by another model than the search's chat model (lazy search's relevance model), at its price. */
  private readonly stepPrices = new Map<string, Pricing | undefined>()
  private embeddingCalls = 0
  private embeddingTokens = 0

  constructor(
    readonly chatPrice: Pricing | undefined,
    private readonly embeddingPrice: Pricing | undefined,
  ) {}

  record(step: string, promptTokens: number, completionTokens: number): void {
    const s = this.step(step)
    s.calls += 1
    s.promptTokens += promptTokens
    s.completionTokens += completionTokens
  }

  /** A call that failed for good and was tolerated by the search (counted, never hidden). */
  recordFailure(step: string): void {
    this.step(step).failures += 1
  }

  /** Prices `step` at another model's price (a step whose calls go to that model). */
  priceStep(step: string, price: Pricing | undefined): void {
    this.stepPrices.set(step, price)
  }

  recordEmbedding(tokens: number): void {
    this.embeddingCalls += 1
    this.embeddingTokens += tokens
  }

  summary(): UsageSummary {
    const byStep = Object.fromEntries([...this.steps].map(([k, v]) => [k, { ...v }]))
    const total = [...this.steps.values()].reduce(
      (a, s) => ({
        calls: a.calls + s.calls,
        promptTokens: a.promptTokens + s.promptTokens,
        completionTokens: a.completionTokens + s.completionTokens,
        failures: a.failures + s.failures,
      }),
      { calls: 0, promptTokens: 0, completionTokens: 0, failures: 0 },
    )
    const chat = this.chatCost(total)
    const embed = priced(this.embeddingPrice, this.embeddingTokens, 0)
    const cost = chat === null || embed === null ? null : chat + embed
    return {
      ...total,
      embeddingCalls: this.embeddingCalls,
      embeddingTokens: this.embeddingTokens,
      costUsd: cost,
      byStep,
    }
  }

  /** Chat cost: the steps of other models at their prices, the rest at the chat model's. */
  private chatCost(total: StepUsage): number | null {
    let cost: number | null = 0
    let prompt = total.promptTokens
    let completion = total.completionTokens
    for (const [name, price] of this.stepPrices) {
      const s = this.steps.get(name)
      if (s === undefined) continue
      prompt -= s.promptTokens
      completion -= s.completionTokens
      const c = priced(price, s.promptTokens, s.completionTokens)
      cost = cost === null || c === null ? null : cost + c
    }
    const rest = priced(this.chatPrice, prompt, completion)
    return cost === null || rest === null ? null : cost + rest
  }

  private step(name: string): StepUsage {
    let s = this.steps.get(name)
    if (s === undefined) this.steps.set(name, (s = { calls: 0, promptTokens: 0, completionTokens: 0, failures: 0 }))
    return s
  }
}

function priced(price: Pricing | undefined, promptTokens: number, completionTokens: number): number | null {
  if (promptTokens + completionTokens === 0) return 0
  return price === undefined ? null : costUsd(price, promptTokens, completionTokens)
}

/** A chat model whose every call is attributed to a search step. */
export class MeteredChat {
  constructor(
    readonly model: ChatModel,
    private readonly meter: UsageMeter,
  ) {}

  async complete(step: string, request: CompletionRequest): Promise<CompletionResult> {
    const result = await this.model.complete(request)
    this.meter.record(step, result.usage.promptTokens, result.usage.completionTokens)
    return result
  }

  /** Streams the reply; tokens are counted locally since a stream reports no usage to us. */
  async *stream(step: string, request: CompletionRequest): AsyncIterable<string> {
    let text = ''
    for await (const chunk of this.model.stream(request)) {
      text += chunk
      yield chunk
    }
    const prompt = request.messages.reduce((n, m) => n + this.model.countTokens(m.content), 0)
    this.meter.record(step, prompt, this.model.countTokens(text))
  }
}

/** Embeds one text and counts the call. */
export async function embedOne(embedder: EmbeddingModel, meter: UsageMeter, text: string): Promise<number[]> {
  const [vector] = await embedder.embed([text])
  meter.recordEmbedding(embedder.countTokens(text))
  return vector ?? []
}
