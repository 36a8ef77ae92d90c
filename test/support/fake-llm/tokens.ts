/**
 * Token counts for the usage block of fake replies (cl100k, like most OpenAI-compatible servers).
 *
 * Exact, yet cheap on bench:scale's traffic: a text is counted sentence by sentence (and line by line),
 * and each piece's count is remembered. The cuts are safe cuts of the encoding (see CUT, and
 * src/index/operations/token-pieces.ts: a space after a character that is not whitespace ends a
 * pre-token match whatever follows), so the counts of the pieces add up to the count of the whole. The
 * pieces recur: a prompt template's fixed text in every request, a text unit's sentences in its
 * extraction prompt, its gleaning and its embedding, an entity's row in the reports of its communities.
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

/**
 * Where a text is cut: after a full stop before a space, and after a line break before a character
 * that is not whitespace (a table row of a report's context). cl100k's pattern ends every match that
 * holds the line break there: its whitespace alternative `\s*[\r\n]+` comes first and stops at the
 * last break of the run, and no letter, number or punctuation match takes a break and more.
 */
const CUT = /\.(?= )|\n(?=\S)/g

export function countTokens(text: string): number {
  let total = 0
  let start = 0
  CUT.lastIndex = 0
  for (let match = CUT.exec(text); match !== null; match = CUT.exec(text)) {
    // The cut is after the matched character: the space or the row starts the next piece.
    total += sentenceTokens(text.slice(start, match.index + 1))
    start = match.index + 1
  }
  return start < text.length ? total + sentenceTokens(text.slice(start)) : total
}
