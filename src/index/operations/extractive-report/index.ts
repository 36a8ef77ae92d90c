/** The offline extractive community report writer used by create_community_reports_text without a chat model. */
export { writeExtractiveReports, type ExtractiveReportInput } from './writer.js'
export { strongestRelationships } from './community-relationships.js'
export { MAX_FINDINGS, writeExtractiveReportsOf } from './writer.js'
