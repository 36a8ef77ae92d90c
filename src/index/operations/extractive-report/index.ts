/** The offline extractive community report writer used by create_community_reports_text without a chat model. */
export { EXTRACTIVE_REPORT_DEFAULTS, writeExtractiveReports, type ExtractiveReportInput, type ExtractiveReportOptions } from './writer.js'
export { isCompleteSentence, normalizeWhitespace, splitSentences, wordsOf } from './sentences.js'
export { textRank } from './textrank.js'
