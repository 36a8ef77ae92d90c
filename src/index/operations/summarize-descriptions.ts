/**
 * Description summarisation (spec §5.4.1): an entity or relationship with two or more distinct
 * descriptions gets one LLM-written summary; inputs are sorted by code point and fed in batches
 * that fit `maxInputTokens`, each later batch starting from the previous summary.
 */
import { compareCodePoints } from '../../graph/components/index.js'
import { formatPrompt } from '../../llm/prompt-template.js'
import type { ChatModel } from '../../llm/types.js'
import type { ExtractedEntityRow } from '../../model/entities.js'
import type { ExtractedRelationshipRow } from '../../model/relationships.js'
import { mapBounded } from './extract-graph/bounded-map.js'
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
}

export async function summarizeDescriptions(
  graph: { entities: readonly RawEntityRow[]; relationships: readonly RawRelationshipRow[] },
  options: SummarizeDescriptionsOptions,
  services: SummarizeServices,
): Promise<SummarizedGraph> {
  let calls = 0
  const summarize = async (subject: string, descriptions: readonly string[]) => {
    const out = await summarizeOne(subject, descriptions, options, services)
    calls += out.calls
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
  return { entities, relationships, calls }
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
): Promise<{ text: string; calls: number }> {
  const sorted = [...new Set(descriptions)].filter((d) => d !== '').sort(compareCodePoints)
  if (sorted.length < 2) return { text: sorted[0] ?? '', calls: 0 }
  const { chat } = services
  const templateTokens = chat.countTokens(options.prompt)
  let budget = options.maxInputTokens - templateTokens
  let collected: string[] = []
  let summary = ''
  let calls = 0
  for (let i = 0; i < sorted.length; i++) {
    const description = sorted[i]!
    budget -= chat.countTokens(description)
    collected.push(description)
    const last = i === sorted.length - 1
    if (!last && !(budget < 0 && collected.length >= 2)) continue
    const prompt = formatPrompt(options.prompt, {
      entity_name: subject,
      description_list: jsonList([...collected].sort(compareCodePoints)),
      max_length: options.maxLength,
    })
    summary = (await chat.complete({ messages: [{ role: 'user', content: prompt }], ...(services.signal ? { signal: services.signal } : {}) })).content
    calls++
    collected = [summary]
    budget = options.maxInputTokens - templateTokens - chat.countTokens(summary)
  }
  return { text: summary, calls }
}
