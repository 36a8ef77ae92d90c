/** Noun-phrase extraction for the fast method: wink-nlp extractor, reference filter and cache. */
export { createNounPhraseExtractor } from './extractor.js'
export { normalizePhrase, pythonListRepr } from './normalize.js'
export { extractNounPhrases, nounPhraseCacheKey } from './cached.js'
