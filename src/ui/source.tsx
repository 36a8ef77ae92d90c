/** The panel a citation opens: the cited record's text (passage, entity, report...) and its other fields. */
import { Fragment } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import { apiJson } from './api.js'

export interface OpenedSource {
  title: string
  meta?: string
  /** A record of the answer's context, shown as it is. */
  record?: Record<string, unknown>
  /** A text unit id to fetch from the index (hybrid search cites passages by id). */
  textUnit?: string
  /** An entity title whose source passages are fetched from the index. */
  entity?: string
  /** A cited source's human-readable id (`Sources 12`): its document's title is fetched from the index. */
  source?: string
  /** Why nothing can be shown. */
  missing?: string
}

export interface Passage {
  id: string
  human_readable_id: number
  document: string
  text: string
}

/** The fields whose value is the cited text itself, in the order they are looked for. */
const BODY_FIELDS = ['text', 'content', 'full_content', 'description', 'summary']

export function SourcePanel({ source, onClose }: { source: OpenedSource; onClose: () => void }) {
  const [fetched, setFetched] = useState<Passage[] | string | undefined>()
  useEffect(() => {
    setFetched(undefined)
    const query = passagesQuery(source)
    if (query === undefined) return
    apiJson<{ passages: Passage[] }>(`/ui/passages?${query}`).then(
      (reply) => setFetched(reply.passages.length > 0 ? reply.passages : 'the passage is no longer in the index'),
      (error: Error) => setFetched(error.message),
    )
  }, [source])
  const record = source.record ?? {}
  const bodyField = BODY_FIELDS.find((f) => typeof record[f] === 'string' && record[f] !== '')
  const fields = Object.entries(record).filter(
    ([k, v]) => k !== bodyField && v !== null && typeof v !== 'object' && String(v) !== '',
  )
  return (
    <aside class="source-panel" id="source-panel">
      <button type="button" class="close" title="Close" onClick={onClose}>
        ×
      </button>
      <h3>{source.title}</h3>
      {source.meta !== undefined && <p class="meta">{source.meta}</p>}
      {source.missing !== undefined && <p class="empty">{source.missing}</p>}
      {fields.length > 0 && (
        <dl class="fields">
          {fields.map(([k, v]) => (
            <Fragment key={k}>
              <dt>{k}</dt>
              <dd>{String(v)}</dd>
            </Fragment>
          ))}
        </dl>
      )}
      {source.source !== undefined && <DocumentLine fetched={fetched} />}
      {bodyField !== undefined && <div class="passage">{String(record[bodyField])}</div>}
      {(source.textUnit !== undefined || source.entity !== undefined) &&
        (fetched === undefined ? (
          <p class="meta">Loading the passage…</p>
        ) : typeof fetched === 'string' ? (
          <p class="error">{fetched}</p>
        ) : (
          <>
            {source.entity !== undefined && <h4>Source passages</h4>}
            {fetched.map((passage) => (
              <div key={passage.id}>
                <p class="meta">
                  {passage.document} · text unit {passage.human_readable_id}
                </p>
                <div class="passage">{passage.text}</div>
              </div>
            ))}
          </>
        ))}
    </aside>
  )
}

function passagesQuery(source: OpenedSource): string | undefined {
  if (source.textUnit !== undefined) return `text_unit=${encodeURIComponent(source.textUnit)}`
  if (source.entity !== undefined) return `entity=${encodeURIComponent(source.entity)}`
  if (source.source !== undefined) return `source=${encodeURIComponent(source.source)}`
  return undefined
}

/** The cited source's document title (its text is the record's, shown below). */
function DocumentLine({ fetched }: { fetched: Passage[] | string | undefined }) {
  if (fetched === undefined) return <p class="meta">Loading the document title…</p>
  if (typeof fetched === 'string') return <p class="error">{fetched}</p>
  const passage = fetched[0]!
  return (
    <p class="meta document-title">
      {passage.document} · text unit {passage.human_readable_id}
    </p>
  )
}
