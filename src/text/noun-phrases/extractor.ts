/**
 * English noun-phrase extraction with wink-nlp (pipes sbd,pos,cer; NER off so words such as
 * "Christmas" stay matchable) followed by the reference's phrase filter.
 */
import winkNLP, { type WinkMethods } from 'wink-nlp'
import model from 'wink-eng-lite-web-model'
import { normalizePhrase, pythonListRepr, type PhraseFilterOptions } from './normalize.js'

/** Up to two adjectives, then one to three nouns or proper nouns. @public (bench/nlp.mjs) */
export const NOUN_PHRASE_PATTERN = '[|ADJ] [|ADJ] [NOUN|PROPN] [|NOUN|PROPN] [|NOUN|PROPN]'

export interface NounPhraseExtractor {
  /** Identifies the extractor and its settings; part of the cache key. */
  readonly key: string
  /** Unique phrases of `text`, upper-cased, in order of first occurrence. */
  extract(text: string): string[]
}

let shared: WinkMethods | undefined

/** One wink instance per process: loading the model takes ~100 ms. */
function nlp(): WinkMethods {
  if (shared === undefined) {
    shared = winkNLP(model, ['sbd', 'pos', 'cer'])
    shared.learnCustomEntities([{ name: 'np', patterns: [NOUN_PHRASE_PATTERN] }])
  }
  return shared
}

interface TokenArrays {
  values: string[]
  pos: string[]
  spaces: string[]
}

const WORD = /^[A-Za-z0-9]+$/

/**
 * wink splits "short-term" into three tokens and the pattern then starts at "term"; pull
 * preceding `word-` pairs written without spaces back into the phrase's first word.
 */
function phraseWords(span: readonly number[], t: TokenArrays): string[][] {
  const [start, end] = span as [number, number]
  let head = t.values[start]
  let i = start
  while (
    i >= 2 &&
    t.values[i - 1] === '-' &&
    t.spaces[i] === '' &&
    t.spaces[i - 1] === '' &&
    WORD.test(t.values[i - 2])
  ) {
    head = `${t.values[i - 2]}-${head}`
    i -= 2
  }
  // A paragraph break inside a match (a heading running into text) splits it into two phrases.
  const parts: string[][] = [[head]]
  for (let k = start + 1; k <= end; k++) {
    if (t.spaces[k].includes('\n\n')) parts.push([])
    parts[parts.length - 1].push(t.values[k])
  }
  return parts
}

export function createNounPhraseExtractor(options: PhraseFilterOptions): NounPhraseExtractor {
  const excluded = new Set((options.exclude_nouns ?? []).map((w) => w.toUpperCase()))
  const key = `wink_en_${pythonListRepr(options.exclude_nouns)}_${options.max_word_length}_${options.word_delimiter}_${options.include_named_entities ? 'ne' : 'none'}`
  return {
    key,
    extract(text: string): string[] {
      const engine = nlp()
      const its = engine.its
      const doc = engine.readDoc(text)
      const tokens = doc.tokens()
      const t: TokenArrays = {
        values: tokens.out(),
        pos: tokens.out(its.pos) as string[],
        spaces: tokens.out(its.precedingSpaces) as string[],
      }
      const properNouns = new Set<string>()
      for (let k = 0; k < t.values.length; k++) if (t.pos[k] === 'PROPN') properNouns.add(t.values[k].toUpperCase())
      const out = new Set<string>()
      const spans = doc.customEntities().out(its.span) as unknown as number[][]
      for (const span of spans) {
        for (const words of phraseWords(span, t)) {
          const phrase = normalizePhrase(words, properNouns, excluded, options)
          if (phrase !== undefined) out.add(phrase)
        }
      }
      return [...out]
    },
  }
}
