/** Noun-phrase extraction for the fast method: the wink-nlp extractor and reference filter (src/text, shared with hybrid search) and the cache. */
export { createNounPhraseExtractor, NOUN_PHRASE_PATTERN, type NounPhraseExtractor } from '../../../text/noun-phrases/extractor.js'
export { normalizePhrase, pythonListRepr, type PhraseFilterOptions } from '../../../text/noun-phrases/normalize.js'
export { extractNounPhrases, nounPhraseCacheKey, type TextUnitPhrases } from './cached.js'
