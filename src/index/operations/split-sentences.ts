/**
 * An English sentence splitter for the `sentence` chunker (the reference uses NLTK Punkt). A
 * sentence ends at `.`, `!`, `?` or an ellipsis, plus any closing quotes or brackets, followed by
 * whitespace and a word that can start a sentence. It does not end after a title (Mr., Dr., St.),
 * a common abbreviation, an initial (J. R. R.), or when the next word starts in lower case.
 * Decimals (3.14) and URLs never split because no whitespace follows the period.
 */

/** Abbreviations after which a period never ends a sentence (lower-cased, without the final period). */
const NEVER_FINAL = new Set([
  'mr',
  'mrs',
  'ms',
  'mx',
  'dr',
  'prof',
  'st',
  'rev',
  'fr',
  'hon',
  'gen',
  'col',
  'capt',
  'cpt',
  'lt',
  'sgt',
  'maj',
  'cmdr',
  'adm',
  'gov',
  'sen',
  'rep',
  'pres',
  'supt',
  'messrs',
  'mme',
  'mlle',
  'sr',
  'jr',
  'vs',
  'v',
  'e.g',
  'i.e',
  'cf',
  'viz',
  'approx',
  'ca',
  'fig',
  'figs',
  'eq',
  'vol',
  'pp',
  'p',
  'ch',
  'sec',
  'no',
  'nos',
  'art',
  'dept',
  'mt',
  'ft',
  'ave',
  'blvd',
  'rd',
  'jan',
  'feb',
  'mar',
  'apr',
  'jun',
  'jul',
  'aug',
  'sep',
  'sept',
  'oct',
  'nov',
  'dec',
])
const CLOSERS = `"'\u201D\u2019)\\]}\u00BB`
const BOUNDARY = new RegExp(`(?:\\.{3}|\u2026|[.!?]+)[${CLOSERS}]*(?=\\s)`, 'g')
// Python's whitespace for str.strip(); unlike JS \s it does not include U+FEFF.
const PY_SPACE =
  '[ \\t\\n\\r\\f\\v\\u001C-\\u001F\\u0085\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000]'
const EDGE_SPACE = new RegExp(`^${PY_SPACE}+|${PY_SPACE}+$`, 'g')

/** Python's `str.strip()`: unlike JS `trim()`, it keeps U+FEFF. */
export function stripPython(text: string): string {
  return text.replace(EDGE_SPACE, '')
}

/** Sentences of `text`, each trimmed of surrounding whitespace; empty text gives none. */
export function splitSentences(text: string): string[] {
  const sentences: string[] = []
  let start = 0
  for (const match of text.matchAll(BOUNDARY)) {
    const end = match.index + match[0].length
    if (!endsSentence(text, match.index, match[0], end)) continue
    const sentence = stripPython(text.slice(start, end))
    if (sentence !== '') sentences.push(sentence)
    start = end
  }
  const rest = stripPython(text.slice(start))
  if (rest !== '') sentences.push(rest)
  return sentences
}

function endsSentence(text: string, at: number, mark: string, end: number): boolean {
  const next = /\S/.exec(text.slice(end, end + 200))
  if (next === null) return true
  const nextChar = next[0]
  // A lower-case continuation ("he said", "etc. and") is the same sentence.
  if (/\p{Ll}/u.test(nextChar)) return false
  if (!mark.startsWith('.') || mark.startsWith('...')) return true
  const word = /([\p{L}\p{N}.]+)$/u.exec(text.slice(Math.max(0, at - 40), at))?.[1] ?? ''
  if (word === '') return true
  const lower = word.toLowerCase()
  if (NEVER_FINAL.has(lower)) return false
  // A single capital letter is an initial (J. K. Rowling); dotted forms (U.S., a.m., e.g.) are abbreviations.
  if (/^\p{Lu}$/u.test(word) || /^(\p{L}\.)+\p{L}$/u.test(word)) return false
  return true
}
