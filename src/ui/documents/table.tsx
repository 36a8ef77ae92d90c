/** The documents table: one row per input file with its status (and why, when skipped or failed) and Delete. */
import { useState } from 'preact/hooks'

export interface DocumentInfo {
  id: string
  title: string
  size: number | null
  added: string | null
  text_units: number | null
  status: string
  /** Skipped or failed: why. */
  reason?: string
}

export function DocumentsTable(props: {
  documents: DocumentInfo[]
  busy: boolean
  onDelete: (doc: DocumentInfo) => void
}) {
  const [confirming, setConfirming] = useState<string | undefined>()
  return (
    <div class="table-scroll">
      <table id="documents-table">
        <thead>
          <tr>
            <th>Title</th>
            <th class="num">Size</th>
            <th>Added</th>
            <th class="num">Text units</th>
            <th>Status</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {props.documents.length === 0 && (
            <tr>
              <td colSpan={6} class="empty">
                No documents yet: drop some above.
              </td>
            </tr>
          )}
          {props.documents.map((doc) => (
            <tr key={doc.id} data-title={doc.title}>
              <td>{doc.title}</td>
              <td class="num">{formatSize(doc.size)}</td>
              <td>{doc.added === null ? '–' : new Date(doc.added).toLocaleString()}</td>
              <td class="num">{doc.text_units ?? '–'}</td>
              <td>
                <span class={`status status-${doc.status}`}>{doc.status}</span>
                {doc.reason !== undefined && <div class="meta reason">{doc.reason}</div>}
              </td>
              <td>
                <DeleteControl
                  doc={doc}
                  busy={props.busy}
                  confirming={confirming === doc.id}
                  setConfirming={(on) => setConfirming(on ? doc.id : undefined)}
                  onDelete={props.onDelete}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

/** Delete asks for a second click; a file deleted on disk is removed by the next update instead. */
function DeleteControl(props: {
  doc: DocumentInfo
  busy: boolean
  confirming: boolean
  setConfirming: (on: boolean) => void
  onDelete: (doc: DocumentInfo) => void
}) {
  const { doc } = props
  if (doc.status === 'deleted') return <span class="meta">removed at the next update</span>
  if (!props.confirming)
    return (
      <button type="button" class="secondary delete" disabled={props.busy} onClick={() => props.setConfirming(true)}>
        Delete…
      </button>
    )
  return (
    <>
      <button
        type="button"
        class="danger"
        onClick={() => {
          props.setConfirming(false)
          props.onDelete(doc)
        }}
      >
        Delete {doc.title}
      </button>
      <button type="button" class="secondary" onClick={() => props.setConfirming(false)}>
        Keep
      </button>
    </>
  )
}

function formatSize(bytes: number | null): string {
  if (bytes === null) return '–'
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
