/**
 * The sentences of every text unit, each with its content-word ids and the entity titles it
 * mentions (n-grams of its words joined by the phrase delimiter, upper-cased, as noun-phrase titles are).
 */
import { contentWords, isCompleteSentence, splitSentences, wordsOf } from './sentences.js'

export interface Sentence {
  /** Position in the corpus (text units in table order, sentences in text order). */
  readonly index: number
  readonly unitId: string
  readonly text: string
  readonly complete: boolean
  readonly wordIds: readonly number[]
  readonly wordCount: number
  /** Entity titles mentioned, each once. */
  readonly mentions: readonly string[]
  /** Numbers the distinct texts of the corpus: sentences with the same text (in different units) share it. */
  readonly textId: number
}

export interface SentenceCorpus {
  readonly sentences: readonly Sentence[]
  /** Sentence indexes per text unit id. */
  readonly byUnit: ReadonlyMap<string, readonly number[]>
  /** How many distinct texts there are (textId is below it). */
  readonly distinctTexts: number
}

export function buildSentenceCorpus(
  textUnits: ReadonlyArray<{ id: string; text: string }>,
  titles: ReadonlySet<string>,
  wordDelimiter: string,
): SentenceCorpus {
  let maxWords = 1
  for (const t of titles) maxWords = Math.max(maxWords, delimiterCount(t, wordDelimiter) + 1)
  const vocabulary = new Map<string, number>()
  const sentences: Sentence[] = []
  const byUnit = new Map<string, number[]>()
  const seenText = new Set<string>()
  const textIds = new Map<string, number>()
  for (const unit of textUnits) {
    const indexes: number[] = []
    byUnit.set(unit.id, indexes)
    for (const text of splitSentences(unit.text)) {
      const words = wordsOf(text)
      if (words.length === 0) continue
      // A sentence repeated verbatim inside one unit ("Humbug!") is kept once.
      const key = `${unit.id}\u0000${text}`
      if (seenText.has(key)) continue
      seenText.add(key)
      const wordIds = contentWords(words).map((w) => {
        let id = vocabulary.get(w)
        if (id === undefined) vocabulary.set(w, (id = vocabulary.size))
        return id
      })
      const index = sentences.length
      let textId = textIds.get(text)
      if (textId === undefined) textIds.set(text, (textId = textIds.size))
      sentences.push({
        index,
        unitId: unit.id,
        text,
        complete: isCompleteSentence(text),
        wordIds,
        wordCount: words.length,
        mentions: mentionsOf(words, titles, maxWords, wordDelimiter),
        textId,
      })
      indexes.push(index)
    }
  }
  return { sentences, byUnit, distinctTexts: textIds.size }
}

function delimiterCount(title: string, delimiter: string): number {
  return delimiter === '' ? 0 : title.split(delimiter).length - 1
}

function mentionsOf(
  words: readonly string[],
  titles: ReadonlySet<string>,
  maxWords: number,
  delimiter: string,
): string[] {
  const upper = words.map((w) => w.toUpperCase())
  const found = new Set<string>()
  for (let i = 0; i < upper.length; i++) {
    let gram = ''
    for (let n = 0; n < maxWords && i + n < upper.length; n++) {
      gram = n === 0 ? upper[i] : gram + delimiter + upper[i + n]
      if (titles.has(gram)) found.add(gram)
    }
  }
  return [...found]
}
