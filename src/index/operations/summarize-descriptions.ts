/**
 * Description summarisation (spec §5.4.1): an entity or relationship with two or more distinct
 * descriptions gets one LLM-written summary; inputs are sorted by code point and fed in batches
 * that fit `maxInputTokens` (a hard cap, where the reference lets the last description overflow),
 * each later batch starting from the previous summary.
 */
import { ConfigError } from '../../errors.js'
import { compareCodePoints } from '../../text/names.js'
import { formatPrompt } from '../../prompts/prompt-template.js'
import type { ChatModel } from '../../llm/types.js'
import type { ExtractedEntityRow } from '../../model/entities.js'
import type { ExtractedRelationshipRow } from '../../model/relationships.js'
import { mapBounded } from '../../storage/bounded-map.js'
import type { RawEntityRow, RawRelationshipRow } from '../../model/raw-graph.js'

export interface SummarizeDescriptionsOptions {
  /** The template ({entity_name}, {description_list}, {max_length}). */
  prompt: string
  maxLength: number
  maxInputTokens: number
  concurrency: number
}

export interface SummarizeServices {
  chat: ChatModel
  signal?: AbortSignal
  onItemDone?: () => void
}

export interface SummarizedGraph {
  entities: ExtractedEntityRow[]
  relationships: ExtractedRelationshipRow[]
  /** LLM calls made (cache hits included). */
  calls: number
  /** Descriptions cut to fit max_input_tokens on their own. */
  truncated: number
}

interface SummaryOutcome {
  text: string
  calls: number
  truncated: number
}

export async function summarizeDescriptions(
  graph: { entities: readonly RawEntityRow[]; relationships: readonly RawRelationshipRow[] },
  options: SummarizeDescriptionsOptions,
  services: SummarizeServices,
): Promise<SummarizedGraph> {
  let calls = 0
  let truncated = 0
  const summarize = async (subject: string, descriptions: readonly string[]) => {
    const out = await summarizeOne(subject, descriptions, options, services)
    calls += out.calls
    truncated += out.truncated
    services.onItemDone?.()
    return out.text
  }
  const entities = await mapBounded(graph.entities, options.concurrency, async (e) => ({
    title: e.title,
    type: e.type,
    text_unit_ids: e.text_unit_ids,
    frequency: e.frequency,
    description: await summarize(JSON.stringify(e.title), e.description),
  }))
  const relationships = await mapBounded(graph.relationships, options.concurrency, async (r) => ({
    source: r.source,
    target: r.target,
    text_unit_ids: r.text_unit_ids,
    weight: r.weight,
    description: await summarize(jsonList([r.source, r.target]), r.description),
  }))
  return { entities, relationships, calls, truncated }
}

/** Python `json.dumps(list, ensure_ascii=False)`: `", "` between items. */
function jsonList(items: readonly string[]): string {
  return `[${items.map((s) => JSON.stringify(s)).join(', ')}]`
}

async function summarizeOne(
  subject: string,
  descriptions: readonly string[],
  options: SummarizeDescriptionsOptions,
  services: SummarizeServices,
): Promise<SummaryOutcome> {
  const sorted = [...new Set(descriptions)].filter((d) => d !== '').sort(compareCodePoints)
  if (sorted.length < 2) return { text: sorted[0] ?? '', calls: 0, truncated: 0 }
  const { chat } = services
  const budget = descriptionBudget(options, chat)
  const ask = async (batch: readonly string[]) => {
    const prompt = formatPrompt(options.prompt, {
      entity_name: subject,
      description_list: jsonList([...batch].sort(compareCodePoints)),
      max_length: options.maxLength,
    })
    return (
      await chat.complete({
        messages: [{ role: 'user', content: prompt }],
        ...(services.signal ? { signal: services.signal } : {}),
      })
    ).content
  }
  // A batch is the previous summary (if any) plus new descriptions, never more than `budget` tokens:
  // it is sent before a description that would overflow it. The carried summary is cut to half the
  // budget so a later batch always has room for new text.
  let carried: string[] = []
  let batch: string[] = []
  let used = 0
  let calls = 0
  let truncated = 0
  for (const description of sorted) {
    if (batch.length > 0 && used + chat.countTokens(description) > budget) {
      const summary = await ask([...carried, ...batch])
      calls++
      carried = [fitTokens(summary, Math.floor(budget / 2), chat)]
      batch = []
      used = chat.countTokens(carried[0]!)
    }
    const fitted = fitTokens(description, budget - used, chat)
    if (fitted !== description) truncated++
    batch.push(fitted)
    used += chat.countTokens(fitted)
  }
  return { text: await ask([...carried, ...batch]), calls: calls + 1, truncated }
}

/** Tokens left for descriptions once the template is counted; none left is a settings error. */
function descriptionBudget(options: SummarizeDescriptionsOptions, chat: ChatModel): number {
  const template = chat.countTokens(options.prompt)
  const budget = options.maxInputTokens - template
  if (budget > 0) return budget
  throw new ConfigError(
    `summarize_descriptions.max_input_tokens is ${options.maxInputTokens}, but the summary prompt alone takes ${template} tokens: raise it so descriptions fit.`,
    { keyPath: 'summarize_descriptions.max_input_tokens' },
  )
}

/** The longest prefix of `text` (cut between code points) that has at most `limit` tokens. */
function fitTokens(text: string, limit: number, chat: ChatModel): string {
  if (chat.countTokens(text) <= limit) return text
  const chars = [...text]
  let low = 0
  let high = chars.length
  while (low < high) {
    const mid = Math.ceil((low + high) / 2)
    if (chat.countTokens(chars.slice(0, mid).join('')) <= limit) low = mid
    else high = mid - 1
  }
  return chars.slice(0, low).join('')
}
