/**
 * The key entity resolution merges on: normalizeName (NFKC, case, punctuation, edge articles) with,
 * optionally, a simple English plural of the last word folded ("FERRIES" → "ferry"). Only keys are
 * compared; the kept title is always one of the extracted spellings.
 */
import { normalizeName } from './normalize-name.js'

/** Singular of one lower-case word by suffix rules; words of 3 letters or fewer and -ss/-us/-is/-as endings are kept. */
export function singularWord(word: string): string {
  if (word.length <= 3 || !word.endsWith('s')) return word
  if (/(ss|us|is|as)$/u.test(word)) return word
  if (word.endsWith('ies') && word.length > 4) return `${word.slice(0, -3)}y`
  if (/(ches|shes|sses|xes|zes)$/u.test(word)) return word.slice(0, -2)
  return word.slice(0, -1)
}

export function entityKey(name: string, plurals: boolean): string {
  const key = normalizeName(name)
  if (!plurals || key === '') return key
  const words = key.split(' ')
  words[words.length - 1] = singularWord(words[words.length - 1]!)
  return words.join(' ')
}
