/**
 * A search result's context as ranked passages, for the retrieval metrics. Text units come first in
 * the order the method ranked them (the `sources` table of local, basic, graph and DRIFT searches,
 * hybrid's [S#] sources), then community reports (local, global and DRIFT), each with its documents.
 */
import type { SearchResult } from '../query/index.js'
import type { Corpus } from './corpus.js'
import type { RetrievedPassage } from './metrics/retrieval.js'

type Row = Readonly<Record<string, unknown>>

export function retrievedPassages(
  result: Pick<SearchResult, 'context' | 'hybrid'>,
  corpus: Corpus,
): RetrievedPassage[] {
  if (result.hybrid !== undefined) return hybridPassages(result.hybrid.sources, corpus)
  const sources = (result.context.sources ?? []).map((row: Row) => {
    const unit = corpus.unitByReadableId.get(String(row.id))
    return { text: String(row.text ?? unit?.text ?? ''), documents: unit === undefined ? [] : [unit.document] }
  })
  const reports = (result.context.reports ?? []).map((row: Row) => {
    const report = corpus.reportByCommunity.get(String(row.community ?? row.id))
    return { text: String(row.content ?? report?.text ?? ''), documents: report?.documents ?? [] }
  })
  return [...sources, ...reports]
}

function hybridPassages(sources: NonNullable<SearchResult['hybrid']>['sources'], corpus: Corpus): RetrievedPassage[] {
  return sources.flatMap((source): RetrievedPassage[] => {
    if (source.kind === 'text_unit') {
      const unit = corpus.unitById.get(source.id)
      return [{ text: unit?.text ?? '', documents: unit === undefined ? [] : [unit.document] }]
    }
    if (source.kind === 'community_report') {
      const report = corpus.reports.find((r) => r.title === source.title)
      return [{ text: report?.text ?? '', documents: report?.documents ?? [] }]
    }
    return []
  })
}
