/**
 * The dry-run estimate: calls and tokens per step, from the real questions filled with the sampled
 * chunks (prompt tokens are counted, completion tokens are a per-step heuristic), priced like index.
 */
import type { ModelSettings, Settings } from '../config/schema.js'
import { formatPrompt } from '../prompts/prompt-template.js'
import { costUsd, priceOfModel } from '../llm/pricing.js'
import { encodingForModel, getTokenizer } from '../llm/tokenizer.js'
import type { PromptTuneOptions } from './options.js'
import * as Q from './questions.js'
import type { SampleChunk } from './sample.js'

export interface StepEstimate {
  step: string
  calls: number
  promptTokens: number
  completionTokens: number
  /** null when the model has no known price. */
  costUsd: number | null
}

// A persona or role is a few sentences, a per-chunk answer roughly as long as its chunk.
const COMPLETION = { domain: 15, language: 8, persona: 120, rating: 80, role: 100, perEntityList: 0.5, perExample: 1.2 }

export function estimatePromptTune(
  settings: Settings,
  o: PromptTuneOptions,
  sample: readonly SampleChunk[],
  embedded: readonly SampleChunk[],
): StepEstimate[] {
  const chat = settings.completion_models[settings.extract_graph.completion_model_id]
  const count = (text: string) =>
    getTokenizer(chat ? encodingForModel(chat.model, chat.encoding_model) : 'cl100k_base').count(text)
  const passages = passagesOf(sample, count)
  const stub = {
    domain: o.domain ?? 'a domain',
    persona: 'You are an expert.',
    language: o.language ?? 'English',
    entity_types: 'A, B, C',
  }
  const one = (step: string, template: string, completion: number) => ({
    step,
    calls: 1,
    prompt: count(formatPrompt(template, { ...stub, passages })),
    completion,
  })
  const perChunk = (step: string, template: string, factor: number) => ({
    step,
    calls: sample.length,
    prompt: sample.reduce((n, c) => n + count(formatPrompt(template, { ...stub, text: c.text })), 0),
    completion: Math.round(sample.reduce((n, c) => n + c.nTokens * factor + 20, 0)),
  })
  const rows = [
    ...(o.domain === undefined ? [one('domain', Q.DOMAIN_QUESTION, COMPLETION.domain)] : []),
    ...(o.language === undefined ? [one('language', Q.LANGUAGE_QUESTION, COMPLETION.language)] : []),
    one('persona', Q.PERSONA_QUESTION, COMPLETION.persona),
    ...(o.discoverEntityTypes ? [perChunk('entity types', Q.OPEN_EXTRACTION_QUESTION, COMPLETION.perEntityList)] : []),
    perChunk('examples', Q.EXAMPLE_QUESTION, COMPLETION.perExample),
    one('rating description', Q.RATING_QUESTION, COMPLETION.rating),
    one('report role', Q.ROLE_QUESTION, COMPLETION.role),
  ].map((r) => ({
    step: r.step,
    calls: r.calls,
    promptTokens: r.prompt,
    completionTokens: r.completion,
    costUsd: price(chat, r.prompt, r.completion),
  }))
  if (embedded.length === 0) return rows
  const embedding = settings.embedding_models[settings.embed_text.embedding_model_id]
  const tokens = embedded.reduce((n, c) => n + c.nTokens, 0)
  const calls = embedding?.model_provider === 'local' ? 0 : Math.ceil(embedded.length / settings.embed_text.batch_size)
  return [
    {
      step: 'embed chunks (auto)',
      calls,
      promptTokens: tokens,
      completionTokens: 0,
      costUsd: price(embedding, tokens, 0),
    },
    ...rows,
  ]
}

/** Sample chunks joined for the whole-corpus questions, up to about 4,000 tokens. */
export function passagesOf(sample: readonly SampleChunk[], count: (text: string) => number, maxTokens = 4000): string {
  const parts: string[] = []
  let used = 0
  for (const chunk of sample) {
    const tokens = count(chunk.text)
    if (parts.length > 0 && used + tokens > maxTokens) break
    parts.push(chunk.text.trim())
    used += tokens
  }
  return parts.join('\n---\n')
}

function price(model: ModelSettings | undefined, promptTokens: number, completionTokens: number): number | null {
  if (model === undefined) return null
  const override = model.pricing
    ? { inputPer1m: model.pricing.input_per_1m, outputPer1m: model.pricing.output_per_1m }
    : undefined
  const p = priceOfModel(model.model_provider, model.model, override)
  return p === undefined ? null : costUsd(p, promptTokens, completionTokens)
}
