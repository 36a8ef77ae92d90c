/**
 * Token counts for the usage block of fake replies (cl100k, like most OpenAI-compatible servers).
 *
 * Exact, yet cheap on bench:scale's traffic: a text is counted sentence by sentence, cut after each
 * ". " (between the full stop and the space), and each sentence's count is remembered. The cut is one
 * of the encodings' safe cuts (src/index/operations/token-pieces.ts: a space after a character that is
 * not whitespace ends a pre-token match whatever follows), so the counts of the pieces add up to the
 * count of the whole. The sentences recur: a prompt template's fixed text in every request, a text
 * unit's sentences in its extraction prompt, its gleaning and its embedding.
 */
import { getTokenizer } from '../../../src/llm/tokenizer.js'

/** Sentences counted lately, in two generations: the older is dropped when the newer fills up. */
let recent = new Map<string, number>()
let older = new Map<string, number>()
const GENERATION_LIMIT = 250_000

function sentenceTokens(sentence: string): number {
  let count = recent.get(sentence)
  if (count !== undefined) return count
  count = older.get(sentence) ?? getTokenizer('cl100k_base').count(sentence)
  if (recent.size >= GENERATION_LIMIT) {
    older = recent
    recent = new Map()
  }
  recent.set(sentence, count)
  return count
}

export function countTokens(text: string): number {
  let total = 0
  let start = 0
  for (let stop = text.indexOf('. '); stop >= 0; stop = text.indexOf('. ', stop + 1)) {
    // The cut is between the full stop and the space: the space starts the next piece.
    total += sentenceTokens(text.slice(start, stop + 1))
    start = stop + 1
  }
  return start < text.length ? total + sentenceTokens(text.slice(start)) : total
}
