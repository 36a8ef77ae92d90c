/**
 * Built-in answers of the fake server: a format-correct reply for every prompt kind, derived
 * deterministically from the prompt so different inputs get different (but stable) answers.
 */
import { createHash } from 'node:crypto'
import type { ChatMessageLike, PromptKind } from './classify.js'
import { lazyReply } from './lazy.js'
import { tuneReply } from './tune.js'
import { evalReply } from './eval-judge.js'
import { resolutionReply } from './resolution.js'

export interface ResponderRequest {
  kind: PromptKind
  messages: ChatMessageLike[]
  body: Record<string, unknown>
}

/** Returns the reply text, or undefined to let the next responder answer. */
export type Responder = (req: ResponderRequest) => string | undefined

/** A stable number in [0, 1) from a string. */
export function hashUnit(text: string): number {
  return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32
}

function lastUser(messages: readonly ChatMessageLike[]): string {
  return [...messages].reverse().find((m) => m.role === 'user')?.content ?? ''
}

export function firstUser(messages: readonly ChatMessageLike[]): string {
  return messages.find((m) => m.role === 'user')?.content ?? ''
}

function prompt(messages: readonly ChatMessageLike[]): string {
  return messages.find((m) => m.role === 'system')?.content ?? firstUser(messages)
}

/** The part of an extraction prompt after its last `Text:` marker (the real input, not the examples). */
export function inputSection(text: string): string {
  const at = text.lastIndexOf('Text:')
  const body = at >= 0 ? text.slice(at + 5) : text
  const end = body.search(/\n#+ ?Reminder|\n-+Real Data-+|\nOutput:\s*$/)
  return end >= 0 ? body.slice(0, end) : body
}

/** Capitalised words of the input, in order of first appearance, as fake entity names. */
function names(text: string, limit: number): string[] {
  const seen = new Set<string>()
  for (const match of inputSection(text).matchAll(/\b[A-Z][a-z]{3,}\b/g)) {
    seen.add(match[0].toUpperCase())
    if (seen.size >= limit) break
  }
  return [...seen]
}

export function entityType(text: string): string {
  const match = /Entity[_ ]types:\s*\[?([A-Za-z_]+)/gi
  let type = 'ORGANIZATION'
  for (const m of text.matchAll(match)) type = m[1]!.toUpperCase()
  return type
}

function extractGraph(messages: readonly ChatMessageLike[]): string {
  const text = firstUser(messages)
  const type = entityType(text)
  const found = names(text, 6)
  const records = found.map(
    (n) => `("entity"<|>${n}<|>${type}<|>${n[0]}${n.slice(1).toLowerCase()} is mentioned in the text)`,
  )
  for (let i = 1; i < found.length; i++) {
    const strength = 1 + Math.floor(hashUnit(`${found[i - 1]}|${found[i]}`) * 10)
    records.push(
      `("relationship"<|>${found[i - 1]}<|>${found[i]}<|>${found[i - 1]} appears together with ${found[i]}<|>${strength})`,
    )
  }
  return records.length === 0 ? '<|COMPLETE|>' : `${records.join('\n##\n')}\n<|COMPLETE|>`
}

function extractClaims(messages: readonly ChatMessageLike[]): string {
  const [subject] = names(firstUser(messages), 1)
  if (subject === undefined) return '<|COMPLETE|>'
  return `(${subject}<|>NONE<|>MENTION<|>SUSPECTED<|>NONE<|>NONE<|>${subject} is mentioned in the text<|>${subject})\n<|COMPLETE|>`
}

function summarize(messages: readonly ChatMessageLike[]): string {
  const text = lastUser(messages)
  return `A merged description of the subject (${createHash('sha256').update(text).digest('hex').slice(0, 8)}), combining every distinct fact from the descriptions given.`
}

/** Ids from the first column of `|`- or `,`-separated context tables. */
export function contextIds(text: string, limit: number): string[] {
  const ids: string[] = []
  for (const match of text.matchAll(/^(\d+)[|,]/gm)) {
    if (!ids.includes(match[1]!)) ids.push(match[1]!)
    if (ids.length >= limit) break
  }
  return ids.length > 0 ? ids : ['0']
}

/** The rows of one `-----Name-----` section of a context; undefined when the context has none. */
export function sectionOf(text: string, name: string): string | undefined {
  // The title alone on its line: prompts also name a table in their instructions ("such as -----Entities-----").
  const start = text.search(new RegExp(`^-----${name}-----$`, 'm'))
  if (start < 0) return undefined
  const next = text.indexOf('\n-----', start + name.length + 10)
  return text.slice(start, next < 0 ? undefined : next)
}

function report(messages: readonly ChatMessageLike[], kind: PromptKind): string {
  const text = firstUser(messages)
  const data = text.slice(Math.max(0, text.lastIndexOf('Real data')))
  // Like a model reading the tables, cite rows of the table named (Sources for text reports, else
  // Entities, or Reports when only sub-reports are shown), not whatever numbers come first.
  const table =
    kind === 'community_report_text' ? 'Sources' : sectionOf(data, 'Entities') === undefined ? 'Reports' : 'Entities'
  const ids = contextIds(sectionOf(data, table) ?? data, 5).join(', ')
  const titles = [...data.matchAll(/^\d+,([^,\n]+),/gm)].map((m) => m[1]!.replace(/"/g, ''))
  const name = titles[0] ?? 'the community'
  const findings = Array.from({ length: 5 }, (_, i) => ({
    summary: `Finding ${i + 1} about ${name}`,
    explanation: `${name} is connected to the other members of the community [Data: ${table} (${ids})].`,
  }))
  return JSON.stringify({
    title: `${name} community`,
    summary: `The community centres on ${name} [Data: ${table} (${ids})].`,
    rating: Math.round(hashUnit(data) * 100) / 10,
    rating_explanation: `The rating reflects how central ${name} is.`,
    findings,
  })
}

function answer(messages: readonly ChatMessageLike[], table: string): string {
  // Cites rows of the table it names: local search's context starts with reports, whose ids are not entities'.
  const text = prompt(messages)
  const ids = contextIds(sectionOf(text, table) ?? text, 3).join(', ')
  return `## Answer\n\nThe data answers the question "${lastUser(messages).slice(0, 80)}" [Data: ${table} (${ids})].`
}

/** The unit labels of a chunk-graph batch (`----- unit N -----` lines of the real data), in order. */
export function chunkGraphUnits(messages: readonly ChatMessageLike[]): string[] {
  const text = firstUser(messages)
  const data = text.slice(Math.max(0, text.lastIndexOf('Real Data')))
  return [...data.matchAll(/^-+ unit (\S+) -+$/gm)].map((m) => m[1]!)
}

/** Each unit of the batch elaborates the one before it, with a weight derived from the pair. */
function chunkGraph(messages: readonly ChatMessageLike[]): string {
  const units = chunkGraphUnits(messages)
  const edges = units.slice(1).map((unit, i) => ({
    source: Number(unit),
    target: Number(units[i]),
    relation: 'elaborates',
    weight: Math.round((0.2 + hashUnit(`${unit}|${units[i]}`) * 0.8) * 100) / 100,
    description: `Unit ${unit} explains unit ${units[i]} further.`,
  }))
  return JSON.stringify({ edges })
}

export const BUILTIN_RESPONDER: Responder = ({ kind, messages }) => {
  switch (kind) {
    case 'preflight':
      return 'Hello World'
    case 'extract_graph':
      return extractGraph(messages)
    case 'extract_graph_continue':
    case 'extract_claims_continue':
      return '<|COMPLETE|>'
    case 'extract_graph_loop':
    case 'extract_claims_loop':
      return 'N'
    case 'extract_claims':
      return extractClaims(messages)
    case 'summarize_descriptions':
      return summarize(messages)
    case 'community_report':
    case 'community_report_text':
      return report(messages, kind)
    case 'global_map': {
      const ids = contextIds(prompt(messages), 3).join(', ')
      const score = 10 + Math.floor(hashUnit(prompt(messages)) * 90)
      return JSON.stringify({
        points: [{ description: `The reports address the question [Data: Reports (${ids})]`, score }],
      })
    }
    case 'global_reduce':
      return answer(messages, 'Reports')
    case 'local_search':
      return answer(messages, 'Entities')
    case 'basic_search':
      return answer(messages, 'Sources')
    case 'drift_reduce':
      return answer(messages, 'Sources')
    case 'drift_local':
      return JSON.stringify({
        response: answer(messages, 'Sources'),
        score: Math.floor(hashUnit(lastUser(messages)) * 100),
        follow_up_queries: [`What else is known about ${lastUser(messages).slice(0, 40)}?`],
      })
    case 'drift_primer':
      return JSON.stringify({
        intermediate_answer: `# Intermediate answer\n\n${lastUser(messages).slice(0, 200)}`,
        score: Math.floor(hashUnit(lastUser(messages)) * 100),
        follow_up_queries: Array.from(
          { length: 5 },
          (_, i) => `Follow-up question ${i + 1} (${hashUnit(lastUser(messages) + i).toFixed(4)})?`,
        ),
      })
    case 'dynamic_rating':
      return JSON.stringify({
        reason: 'The report relates to the question.',
        rating: 1 + Math.floor(hashUnit(prompt(messages)) * 5),
      })
    case 'chunk_graph':
      return chunkGraph(messages)
    case 'hybrid_entities':
      return JSON.stringify([
        ...new Set([...lastUser(messages).matchAll(/\b[A-Z][a-z]{2,}(?: [A-Z][a-z]{2,})*\b/g)].map((m) => m[0])),
      ])
    case 'hybrid_search':
      return `The sources answer the question [S1].`
    case 'eval_judge_pairwise':
    case 'eval_judge_correctness':
    case 'eval_assertion':
    case 'eval_generate':
      return evalReply(kind, messages)
    case 'resolution_confirm':
      return resolutionReply(messages)
    case 'lazy_subqueries':
    case 'lazy_relevance':
    case 'lazy_claims':
    case 'lazy_answer':
      return lazyReply(kind, messages)
    case 'unknown':
      return undefined
    default:
      return tuneReply(kind, messages)
  }
}

/** A minimal value satisfying a JSON schema, for structured requests no responder recognised. */
function sampleForSchema(schema: unknown): unknown {
  const s = (schema ?? {}) as Record<string, unknown>
  const type = Array.isArray(s.type) ? s.type[0] : s.type
  if (Array.isArray(s.enum)) return s.enum[0]
  switch (type) {
    case 'object': {
      const props = (s.properties ?? {}) as Record<string, unknown>
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sampleForSchema(v)]))
    }
    case 'array':
      return [sampleForSchema(s.items)]
    case 'string':
      return 'text'
    case 'number':
    case 'integer':
      return 1
    case 'boolean':
      return true
    case 'null':
      return null
    default:
      return {}
  }
}

/** The reply for a request nobody recognised. */
export function fallbackReply(body: Record<string, unknown>): string {
  const format = body.response_format as { type?: string; json_schema?: { schema?: unknown } } | undefined
  if (format?.type === 'json_schema') return JSON.stringify(sampleForSchema(format.json_schema?.schema))
  if (format?.type === 'json_object') return '{}'
  return promptedJsonReply(body) ?? 'This is a reply from the fake LLM server.'
}

/**
 * A provider without JSON mode gets the JSON instruction at the end of the prompt (src/llm/json.ts
 * promptedJson); like a model that follows it, the fake then answers with such an object.
 */
function promptedJsonReply(body: Record<string, unknown>): string | undefined {
  const messages = Array.isArray(body.messages) ? (body.messages as Array<{ content?: unknown }>) : []
  const last = messages.at(-1)?.content
  const text = typeof last === 'string' ? last : ''
  const at = text.lastIndexOf('Reply with one JSON object')
  if (at < 0) return undefined
  const instruction = text.slice(at)
  const schema = /matching this JSON schema:\n(.*)\. Output only/s.exec(instruction)?.[1]
  if (schema !== undefined) return JSON.stringify(sampleForSchema(JSON.parse(schema)))
  const keys = [...(/with the keys (.*)\. Output only/.exec(instruction)?.[1] ?? '').matchAll(/"([^"]+)"/g)].map(
    (m) => m[1]!,
  )
  return JSON.stringify(Object.fromEntries(keys.map((k) => [k, 1])))
}
