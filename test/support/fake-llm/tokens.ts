/** Token counts for the usage block of fake replies (cl100k, like most OpenAI-compatible servers). */
import { getTokenizer } from '../../../src/llm/tokenizer.js'

/** Long texts counted lately: a gleaning request repeats its conversation's first prompt and reply. */
const recent = new Map<string, number>()
const RECENT_LIMIT = 4096
const REMEMBERED_FROM = 256

export function countTokens(text: string): number {
  if (text.length < REMEMBERED_FROM) return getTokenizer('cl100k_base').count(text)
  let count = recent.get(text)
  if (count === undefined) {
    count = getTokenizer('cl100k_base').count(text)
    if (recent.size >= RECENT_LIMIT) recent.clear()
    recent.set(text, count)
  }
  return count
}
