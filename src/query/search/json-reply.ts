/** Tolerant reading of JSON replies: code fences, thinking and chatter around the object are ignored, broken JSON repaired. */
import { parseTolerant } from '../../llm/json.js'
import type { CompletionResult } from '../../llm/types.js'

/** The reply's JSON object, or undefined when none can be read. */
export function replyObject(result: CompletionResult): Record<string, unknown> | undefined {
  if (isObject(result.json)) return result.json
  return parseJsonObject(result.content)
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  const value = parseTolerant(text)
  return isObject(value) ? value : undefined
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
