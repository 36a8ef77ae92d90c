/** What a citation of an answer opens: a record of the answer's context, or a passage fetched from the index. */
import type { Citation } from '../citations.js'
import type { OpenedSource } from '../source.js'
import type { Turn } from './turn.js'

/** What a citation points at: a record of the answer's context, or (hybrid) a passage fetched by its id. */
export function resolveCitation(turn: Turn, citation: Citation): OpenedSource {
  if (citation.table === 'hybrid') return hybridSource(turn, citation)
  const records = turn.result?.context?.[citation.table]
  const record = records?.find((r) => String(r.id) === citation.id)
  if (record === undefined)
    return { title: citation.label, missing: `record ${citation.id} is not in the context the answer was given` }
  // An entity is shown with the passages it was extracted from; a source with its document's title.
  if (citation.table === 'entities' && typeof record.entity === 'string')
    return { title: citation.label, record, entity: record.entity }
  if (citation.table === 'sources') return { title: citation.label, record, source: citation.id }
  return { title: citation.label, record }
}

function hybridSource(turn: Turn, citation: Citation): OpenedSource {
  const source = turn.result?.sources?.find((s) => s.label === citation.id)
  if (source === undefined) return { title: citation.label, missing: 'not among the answer’s sources' }
  if (source.kind === 'text_unit')
    return { title: `${citation.label}: text unit`, meta: `ranked by ${source.reason}`, textUnit: source.id }
  return { title: `${citation.label}: ${source.kind}`, meta: `ranked by ${source.reason}`, record: { ...source } }
}
