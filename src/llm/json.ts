/**
 * Tolerant parsing of structured replies: models wrap JSON in code fences or prose and leave
 * trailing commas. A reply that still does not parse or fit the schema is a retryable failure.
 */
import { jsonrepair } from '../vendor/jsonrepair.js'
import { stripThinking } from './thinking.js'
import { AttemptFailure } from './failure.js'
import type { ChatMessage, ResponseFormat } from './types.js'

/** Parses `text` as the JSON a response format asked for; throws a retryable AttemptFailure otherwise. */
export function parseStructuredReply(text: string, format: ResponseFormat): unknown {
  const value = parseTolerant(text)
  if (value === undefined) throw invalid(`reply is not valid JSON: ${preview(text)}`)
  if (format.type === 'json_object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalid('reply is not a JSON object')
    const missing = (format.required ?? []).filter((key) => !(key in value))
    if (missing.length > 0) throw invalid(`reply lacks ${missing.map((k) => `"${k}"`).join(', ')}: ${preview(text)}`)
    return value
  }
  const problem = validate(value, format.schema, '$')
  if (problem !== undefined) throw invalid(`reply does not match schema ${format.name}: ${problem}`)
  return value
}

/**
 * The JSON value in `text`, or undefined when none can be recovered. Thinking blocks are never read;
 * what strict parsing cannot read is handed to jsonrepair (wrong closing brackets, unquoted keys,
 * single quotes, comments) before giving up. A reply cut short (it does not end with a closing
 * bracket) is not repaired: the repair would close it and the missing part would be lost unnoticed,
 * where an invalid reply is asked again.
 */
export function parseTolerant(reply: string): unknown {
  const text = stripThinking(reply).text
  // Each candidate and repair is made only once the ones before it failed: a well-formed reply (nearly
  // every one) costs one JSON.parse.
  const candidates = [() => text.trim(), () => stripFences(text), () => outermost(stripFences(text))]
  for (const candidateOf of candidates) {
    const candidate = candidateOf()
    if (candidate === undefined || candidate === '') continue
    for (const attempt of [() => candidate, () => removeTrailingCommas(candidate)]) {
      try {
        return JSON.parse(attempt())
      } catch {
        // try the next repair
      }
    }
  }
  for (const candidate of [stripFences(text), fromFirstBracket(stripFences(text)), outermost(stripFences(text))]) {
    if (candidate === undefined || !/^[{[]/.test(candidate) || !/[}\]]$/.test(candidate)) continue
    try {
      return JSON.parse(jsonrepair(candidate))
    } catch {
      // not repairable: try the next candidate
    }
  }
  return undefined
}

/** From the first `{` or `[` to the last `}` or `]`, whichever kind: a reply closed with the wrong brackets. */
function fromFirstBracket(text: string): string | undefined {
  const start = text.search(/[{[]/)
  const end = Math.max(text.lastIndexOf('}'), text.lastIndexOf(']'))
  return start >= 0 && end > start ? text.slice(start, end + 1) : undefined
}

function stripFences(text: string): string {
  const fenced = /```(?:json|JSON)?\s*\n?([\s\S]*?)```/.exec(text)
  return (fenced?.[1] ?? text).trim()
}

/** From the first `{` or `[` to the last matching closer: drops prose before and after. */
function outermost(text: string): string | undefined {
  const start = text.search(/[{[]/)
  if (start < 0) return undefined
  const closer = text[start] === '{' ? '}' : ']'
  const end = text.lastIndexOf(closer)
  return end > start ? text.slice(start, end + 1) : undefined
}

/** Removes commas before a closing brace or bracket, outside of strings. */
function removeTrailingCommas(text: string): string {
  let out = ''
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!
    if (inString) {
      out += c
      if (c === '\\') out += text[++i] ?? ''
      else if (c === '"') inString = false
      continue
    }
    if (c === '"') inString = true
    if (c === ',' && closesNext(text, i + 1)) continue
    out += c
  }
  return out
}

/** Whether the first character from `at` that is not whitespace (as trimStart sees it) closes an object or array. */
function closesNext(text: string, at: number): boolean {
  let i = at
  while (i < text.length && text[i]!.trim() === '') i++
  return text[i] === '}' || text[i] === ']'
}

/** A small JSON-schema check: type, properties, required, items, enum. Returns the first problem. */
function validate(value: unknown, schema: unknown, path: string): string | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined
  const s = schema as Record<string, unknown>
  if (Array.isArray(s.enum) && !s.enum.some((e) => e === value))
    return `${path}: expected one of ${JSON.stringify(s.enum)}`
  const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string]
  if (types.length > 0 && !types.some((t) => hasType(value, t)))
    return `${path}: expected ${types.join(' or ')}, got ${describe(value)}`
  if (Array.isArray(value) && s.items !== undefined) {
    for (let i = 0; i < value.length; i++) {
      const problem = validate(value[i], s.items, `${path}[${i}]`)
      if (problem !== undefined) return problem
    }
  }
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const obj = value as Record<string, unknown>
    for (const key of (s.required as string[] | undefined) ?? []) {
      if (!(key in obj)) return `${path}: missing required key "${key}"`
    }
    const props = (s.properties ?? {}) as Record<string, unknown>
    for (const [key, sub] of Object.entries(props)) {
      if (key in obj) {
        const problem = validate(obj[key], sub, `${path}.${key}`)
        if (problem !== undefined) return problem
      }
    }
  }
  return undefined
}

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value)
    case 'array':
      return Array.isArray(value)
    case 'string':
      return typeof value === 'string'
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value)
    case 'boolean':
      return typeof value === 'boolean'
    case 'null':
      return value === null
    default:
      return true
  }
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value
}

function invalid(message: string): AttemptFailure {
  return new AttemptFailure(message, { kind: 'invalid_reply', retryable: true })
}

function preview(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat
}

/**
 * The messages with the JSON instruction written into the prompt, for providers without a JSON
 * response format: the reply is then parsed tolerantly and validated like any structured reply.
 */
export function promptedJson(messages: readonly ChatMessage[], format: ResponseFormat): ChatMessage[] {
  const shape =
    format.type === 'json_schema'
      ? ` matching this JSON schema:\n${JSON.stringify(format.schema)}`
      : format.required !== undefined && format.required.length > 0
        ? ` with the keys ${format.required.map((k) => `"${k}"`).join(', ')}`
        : ''
  const instruction = `Reply with one JSON object${shape}. Output only the JSON, no prose and no code fences.`
  // Added to the last message, the request itself, so the conversation keeps its turns.
  const last = messages.at(-1)
  if (last === undefined || last.role !== 'user') return [...messages, { role: 'user', content: instruction }]
  return [...messages.slice(0, -1), { role: 'user', content: `${last.content}\n\n${instruction}` }]
}
