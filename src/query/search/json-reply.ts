/** Tolerant reading of JSON replies: code fences and chatter around the object are ignored. */
import type { CompletionResult } from '../../llm/types.js'

/** The reply's JSON object, or undefined when none can be read. */
export function replyObject(result: CompletionResult): Record<string, unknown> | undefined {
  if (isObject(result.json)) return result.json
  return parseJsonObject(result.content)
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const candidates = [text.trim(), text.replace(/^\s*```(?:json)?\s*|\s*```\s*$/g, '')]
  const start = text.indexOf('{')
  const end = text.lastIndexOf('}')
  if (start >= 0 && end > start) candidates.push(text.slice(start, end + 1))
  for (const candidate of candidates) {
    try {
      const value: unknown = JSON.parse(candidate)
      if (isObject(value)) return value
    } catch {
      // try the next, more lenient candidate
    }
  }
  return undefined
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** A finite number from a JSON value (numbers or numeric strings), else undefined. */
export function toNumber(value: unknown): number | undefined {
  const n =
    typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN
  return Number.isFinite(n) ? n : undefined
}
