/**
 * Entity-name normalisation, one function for search (matching question entities to graph
 * entities) and indexing (extract_graph.normalize_titles merges entities whose keys are equal).
 */

/** Words dropped at either end of a name ("The Ghost of Christmas Past" → "ghost of christmas past"). */
export const EDGE_STOPWORDS: ReadonlySet<string> = new Set([
  'the',
  'a',
  'an',
  'and',
  'or',
  'of',
  'in',
  'on',
  'at',
  'to',
  'for',
  'by',
  'with',
  'from',
])

// Apostrophes join ("O'Brien" → "obrien"); any other punctuation separates words ("Jean-Luc" → "jean luc").
const APOSTROPHES = /['’ʼ‘`]/gu
const PUNCTUATION = /\p{P}+/gu
const SPACES = /\s+/gu

/**
 * The comparison key of a name: Unicode NFKC (full-width and compatibility forms folded), lower
 * case, punctuation removed, spaces collapsed, stopwords trimmed from both ends. A name made only of
 * stopwords keeps them, so "The" still has a key. Scripts without case or spaces pass through.
 */
export function normalizeName(name: string): string {
  const words = name
    .normalize('NFKC')
    .toLowerCase()
    .replace(APOSTROPHES, '')
    .replace(PUNCTUATION, ' ')
    .replace(SPACES, ' ')
    .trim()
    .split(' ')
    .filter((w) => w !== '')
  let start = 0
  let end = words.length
  while (start < end && EDGE_STOPWORDS.has(words[start]!)) start++
  while (end > start && EDGE_STOPWORDS.has(words[end - 1]!)) end--
  return (start < end ? words.slice(start, end) : words).join(' ')
}
