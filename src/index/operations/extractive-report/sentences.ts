/**
 * Sentence splitting and word tokenisation for the extractive report writer: a rule-based splitter
 * (terminal punctuation, closing quotes, common abbreviations and initials) that keeps text verbatim.
 */

const ABBREVIATIONS = new Set([
  'mr',
  'mrs',
  'ms',
  'dr',
  'st',
  'jr',
  'sr',
  'prof',
  'rev',
  'capt',
  'col',
  'gen',
  'lt',
  'mt',
  'no',
  'vs',
  'etc',
  'fig',
  'inc',
  'ltd',
  'co',
  'ave',
])

/** Collapses runs of whitespace to one space and trims. */
export function normalizeWhitespace(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** True when the word before a period is an abbreviation or an initial ("J."), so no sentence ends there. */
function isAbbreviation(text: string, dot: number): boolean {
  let start = dot
  while (start > 0 && /[A-Za-z.]/.test(text[start - 1])) start--
  const word = text.slice(start, dot)
  if (/^[A-Z]$/.test(word)) return true
  if (/[A-Za-z]\.[A-Za-z]$/.test(word)) return true // e.g., i.e
  return ABBREVIATIONS.has(word.toLowerCase())
}

/**
 * Splits text into sentences with whitespace normalised. A sentence ends at `.`, `!` or `?`
 * (plus any closing quotes or brackets) followed by whitespace and an upper-case letter, digit or
 * opening quote; paragraph breaks (blank lines) always end one.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = []
  const boundary = /([.!?]+)(["'”’)\]_]*)(\s+)(?=["'“‘([_]*[A-Z0-9])|\n\s*\n/g
  let start = 0
  for (let m = boundary.exec(text); m !== null; m = boundary.exec(text)) {
    if (m[1] !== undefined && m[1] === '.' && isAbbreviation(text, m.index)) continue
    const end = m[1] === undefined ? m.index : m.index + m[1].length + m[2].length
    const sentence = normalizeWhitespace(text.slice(start, end))
    if (sentence !== '') out.push(sentence)
    start = m.index + m[0].length
  }
  const rest = normalizeWhitespace(text.slice(start))
  if (rest !== '') out.push(rest)
  return out
}

/** A whole sentence: starts with a capital (after optional quotes) and ends with terminal punctuation. */
export function isCompleteSentence(sentence: string): boolean {
  return /^["'“‘([_]*[A-Z0-9]/.test(sentence) && /[.!?]["'”’)\]_]*$/.test(sentence)
}

/** Words (letters/digits with inner hyphens), as in the noun-phrase filter. */
export function wordsOf(sentence: string): string[] {
  return sentence.match(/[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*/g) ?? []
}

const STOPWORDS = new Set(
  (
    'the and that was his her him she they them their with for not had have has you your are were this from but all what when which ' +
    'who would could should there then than into out upon said one its our ours been being very some any more most such only own ' +
    'same too can will just did does doing how why where also over under again further once here off'
  ).split(' '),
)

/** Lower-cased content words (three letters or more, not a stop word), for sentence similarity. */
export function contentWords(words: readonly string[]): string[] {
  return words.map((w) => w.toLowerCase()).filter((w) => w.length >= 3 && !STOPWORDS.has(w))
}
