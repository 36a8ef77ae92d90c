/**
 * The judge: a chat model (`eval.judge_model_id`) asked for JSON verdicts. The LLM layer retries a
 * reply that is not JSON or misses the schema; a reply that parses but is out of range is asked again
 * here (uncached). A judgement that stays unusable is counted, reported and left out of the scores.
 */
import type { Settings } from '../config/index.js'
import { LlmError } from '../errors.js'
import { createChatModel, modelOptionsFromSettings } from '../llm/index.js'
import { priceOfModel } from '../llm/pricing.js'
import type { ChatMessage, ChatModel, JsonSchemaFormat } from '../llm/types.js'
import { modelSettings } from '../query/models.js'
import { MeteredChat, UsageMeter, type UsageSummary } from '../query/usage.js'
import {
  ASSERTION_FORMAT,
  assertionMessages,
  CORRECTNESS_FORMAT,
  type Criterion,
  correctnessMessages,
  GENERATE_FORMAT,
  generateMessages,
  PAIRWISE_FORMAT,
  pairwiseMessages,
} from './judge-prompts.js'
import type { Verdict } from './metrics/pairwise.js'
import { normalizeText } from './metrics/retrieval.js'

/** Attempts of a reply that parses but makes no sense (a score of 11) before it counts as unusable. */
const SENSE_ATTEMPTS = 3

export interface Grade {
  /** 0–1 (the judge's 0–10 divided by 10). */
  correctness: number
  completeness: number
}

export class Judge {
  private readonly meter: UsageMeter
  private readonly chat: MeteredChat
  /** Judgements whose reply stayed unusable (left out of the scores). */
  unusable = 0

  constructor(
    readonly model: ChatModel,
    price: ConstructorParameters<typeof UsageMeter>[0],
  ) {
    this.meter = new UsageMeter(price, undefined)
    this.chat = new MeteredChat(model, this.meter)
  }

  usage(): UsageSummary {
    return this.meter.summary()
  }

  async pairwise(question: string, criterion: Criterion, first: string, second: string): Promise<Verdict | undefined> {
    return this.ask('judge_pairwise', pairwiseMessages(question, criterion, first, second), PAIRWISE_FORMAT, (json) => {
      const winner = (json as { winner: string }).winner
      return winner === '1' ? 'first' : winner === '2' ? 'second' : 'tie'
    })
  }

  async grade(question: string, reference: string, answer: string): Promise<Grade | undefined> {
    return this.ask(
      'judge_correctness',
      correctnessMessages(question, reference, answer),
      CORRECTNESS_FORMAT,
      (json) => {
        const { correctness, completeness } = json as { correctness: number; completeness: number }
        const inRange = (n: number) => n >= 0 && n <= 10
        if (!inRange(correctness) || !inRange(completeness)) return undefined
        return { correctness: correctness / 10, completeness: completeness / 10 }
      },
    )
  }

  async assertion(question: string, answer: string, assertion: string): Promise<boolean | undefined> {
    return this.ask('judge_assertion', assertionMessages(question, answer, assertion), ASSERTION_FORMAT, (json) =>
      Boolean((json as { holds: boolean }).holds),
    )
  }

  /**
   * A question about `text` with its answer and a supporting quote; for a local passage the quote
   * must be copied from it (otherwise the reply is asked again, then counted unusable).
   */
  async generate(
    scope: 'local' | 'global',
    text: string,
  ): Promise<{ question: string; answer: string; quote: string } | undefined> {
    return this.ask('generate_question', generateMessages(scope, text), GENERATE_FORMAT, (json) => {
      const reply = json as { question: string; answer: string; quote: string }
      const quoted = normalizeText(text).includes(normalizeText(reply.quote))
      if (reply.question.trim() === '' || reply.answer.trim() === '' || (scope === 'local' && !quoted)) return undefined
      return { question: reply.question.trim(), answer: reply.answer.trim(), quote: reply.quote.trim() }
    })
  }

  private async ask<T>(
    step: string,
    messages: ChatMessage[],
    format: JsonSchemaFormat,
    accept: (json: unknown) => T | undefined,
  ): Promise<T | undefined> {
    for (let attempt = 0; attempt < SENSE_ATTEMPTS; attempt++) {
      try {
        const reply = await this.chat.complete(step, { messages, responseFormat: format, noCache: attempt > 0 })
        const value = accept(reply.json)
        if (value !== undefined) return value
      } catch (error) {
        // The layer has retried already: a reply that never became valid JSON, or a model that failed for good.
        if (!(error instanceof LlmError)) throw error
        this.meter.recordFailure(step)
        break
      }
    }
    this.unusable += 1
    return undefined
  }
}

/** The judge of `eval.judge_model_id`, or undefined when it is null (no judge metrics). */
export function createJudge(settings: Settings, keyOrigins: Readonly<Record<string, string>> = {}): Judge | undefined {
  const id = settings.eval.judge_model_id
  if (id === null) return undefined
  const model = modelSettings(settings, 'completion_models', id, 'eval.judge_model_id')
  const context = { concurrentRequests: settings.concurrent_requests, keyOrigin: keyOrigins[`completion_models.${id}`] }
  const chat = createChatModel(modelOptionsFromSettings('completion_models', id, model, context))
  const override =
    model.pricing === null
      ? undefined
      : { inputPer1m: model.pricing.input_per_1m, outputPer1m: model.pricing.output_per_1m }
  return new Judge(chat, priceOfModel(model.model_provider, model.model, override))
}
