/**
 * Reads one graph-extraction reply the way a careful person would: thinking blocks are never read;
 * tuple records first (parseGraphReply, unchanged for well-formed replies); when a reply holds none,
 * the JSON and Markdown forms models write instead (structured-reply.ts). Records copied from the
 * prompt's examples are dropped, and a reply that is only a refusal, a non-answer, an echo of the
 * examples or an unfinished thinking block is called unusable rather than read as "no entities".
 */
import { DEFAULT_ENTITY_TYPES } from '../../../config/sections/workflows.js'
import { stripThinking } from '../../../llm/thinking.js'
import { type ParsedGraphReply, parseGraphReply } from './parse.js'
import { normalizeReply } from './reply-text.js'
import { readStructuredRecords } from './structured-reply.js'

export interface ReplyContext {
  /** The extraction template: titles found in its examples but not in the text are echoes. */
  template?: string
  /** The text unit the reply is about. */
  inputText?: string
  /** The configured entity types (default: the settings' default list): tell a type from a name. */
  entityTypes?: readonly string[]
}

export interface GraphReplyReading extends ParsedGraphReply {
  /** Why the reply cannot be used (refusal, non-answer, echo, unfinished thinking); undefined when usable. */
  unusable: string | undefined
}

// "I'm sorry, …", "I cannot …", "As an AI …", "抱歉，…", "我无法…".
const REFUSAL =
  /^\W*(?:I(?:'|’)?m sorry|I am sorry|sorry\b|I apologi[sz]e|I (?:can(?:no|')t|am unable|'m unable|won't|will not)|as an AI|unfortunately,? I|抱歉|对不起|很抱歉|我无法|我不能|无法完成)/i
// A reply that says there is nothing (more) to extract: a legitimate empty answer.
const NOTHING_FOUND =
  /\b(?:no|zero|any|0)\s+(?:[\w-]+\s+){0,2}(?:entities|entity|relationships|records|claims?)\b|\bnothing\s+(?:more\s+|else\s+)?to\s+(?:add|extract)|\bnone\b|没有(?:更多|其他|新的)?(?:实体|关系|声明|主张)|无(?:实体|关系|声明|主张)/i

export function readGraphReply(reply: string, context: ReplyContext = {}): GraphReplyReading {
  const types = context.entityTypes ?? DEFAULT_ENTITY_TYPES
  const tuples = parseGraphReply(reply)
  const read = withNamesInPlace(
    tuples.entities.length + tuples.relationships.length > 0
      ? withListedEntities(reply, tuples, types)
      : withStructured(reply, tuples, types),
    types,
  )
  const echoes = echoedTitles(read, context)
  const kept: ParsedGraphReply =
    echoes.size === 0
      ? read
      : {
          ...read,
          entities: read.entities.filter((e) => !echoes.has(e.title)),
          relationships: read.relationships.filter((r) => !echoes.has(r.source) && !echoes.has(r.target)),
          dropped: [
            ...read.dropped,
            ...[...echoes].map((title) => ({
              text: title,
              reason: "copied from the prompt's examples, not in the text",
            })),
          ],
        }
  const records = kept.entities.length + kept.relationships.length
  return { ...kept, unusable: records > 0 ? undefined : whyUnusable(reply, echoes.size > 0) }
}

function withStructured(reply: string, tuples: ParsedGraphReply, types: readonly string[]): ParsedGraphReply {
  const structured = readStructuredRecords(stripThinking(reply).text, types)
  if (structured.entities.length + structured.relationships.length === 0) return tuples
  // Tuple-like leftovers are still reported; the structured reading supplies the records.
  return { ...structured, dropped: [...tuples.dropped, ...structured.dropped] }
}

/**
 * Relationships as tuple records but entities only as a Markdown list: the list supplies the
 * entities, so the relationships are not left orphaned. Replies with a tuple entity read as before.
 */
function withListedEntities(reply: string, tuples: ParsedGraphReply, types: readonly string[]): ParsedGraphReply {
  if (tuples.entities.length > 0) return tuples
  const listed = readStructuredRecords(stripThinking(reply).text, types).entities
  return listed.length === 0 ? tuples : { ...tuples, entities: listed }
}

/**
 * `("entity"<|>"person"<|>"wayne barlowe"<|>…)`: the name slot holds a configured entity type and the
 * type slot does not, so the model swapped them.
 */
function withNamesInPlace(read: ParsedGraphReply, types: readonly string[]): ParsedGraphReply {
  const isType = (value: string) => types.some((t) => t.toUpperCase() === value)
  if (!read.entities.some((e) => isType(e.title) && !isType(e.type) && e.type !== '')) return read
  const entities = read.entities.map((e) =>
    isType(e.title) && !isType(e.type) && e.type !== '' ? { ...e, title: e.type, type: e.title } : e,
  )
  return { ...read, entities }
}

/** Titles the model copied from the prompt's examples: in the template, not in the text. */
function echoedTitles(read: ParsedGraphReply, context: ReplyContext): Set<string> {
  return echoedNames(
    [...read.entities.map((e) => e.title), ...read.relationships.flatMap((r) => [r.source, r.target])],
    context,
  )
}

/**
 * Names (entity titles, claim subjects) the model copied from the prompt's examples: found in the
 * template but not in the text. Shared by graph and claim extraction.
 */
export function echoedNames(titles: readonly string[], context: ReplyContext): Set<string> {
  const { template, inputText } = context
  const echoes = new Set<string>()
  if (template === undefined || inputText === undefined) return echoes
  const inTemplate = template.replace('{input_text}', '').toUpperCase()
  const inText = inputText.toUpperCase()
  for (const title of titles) {
    if (title.length < 3 || inText.includes(title)) continue
    const escaped = title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    if (new RegExp(`(?<![\\p{L}\\p{N}])${escaped}(?![\\p{L}\\p{N}])`, 'u').test(inTemplate)) echoes.add(title)
  }
  return echoes
}

/**
 * Why a reply that yielded no usable record cannot be used (a refusal, prose, an echo of the
 * examples, an unfinished thinking block), or undefined for a legitimate empty answer ("no
 * entities", a bare completion marker). Shared by graph and claim extraction.
 */
export function whyUnusable(reply: string, echoed: boolean): string | undefined {
  if (echoed) return "an echo of the prompt's examples"
  const thinking = stripThinking(reply)
  const text = normalizeReply(reply).trim()
  if (thinking.unfinished && text === '') return 'an unfinished thinking block, no answer'
  if (text === '') return undefined
  // "I can't find any entities in this text" is an answer, not a refusal.
  if (NOTHING_FOUND.test(text)) return undefined
  if (REFUSAL.test(text)) return `a refusal: ${preview(text)}`
  return `no records, only prose: ${preview(text)}`
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ')
  return flat.length > 100 ? `${flat.slice(0, 100)}…` : flat
}
