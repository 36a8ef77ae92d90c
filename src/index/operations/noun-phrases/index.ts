/** Noun-phrase extraction for the fast method: the wink-nlp extractor and reference filter (src/text, shared with hybrid search) and the cache. */
export { createNounPhraseExtractor } from '../../../text/noun-phrases/extractor.js'
export { extractNounPhrases } from './cached.js'
