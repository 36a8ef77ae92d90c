/** Noun-phrase extraction for the fast method: wink-nlp extractor, reference filter and cache. */
export { createNounPhraseExtractor, NOUN_PHRASE_PATTERN, type NounPhraseExtractor } from './extractor.js'
export { normalizePhrase, pythonListRepr, type PhraseFilterOptions } from './normalize.js'
export { extractNounPhrases, nounPhraseCacheKey, type TextUnitPhrases } from './cached.js'
