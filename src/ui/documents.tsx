/**
 * Documents: the input documents (GET /documents), upload by drag and drop or file picker
 * (POST /documents), delete (DELETE /documents/{id}), then `update` with its progress read live from
 * the job stream. Queries keep using the previous index until the update publishes the new one.
 */
import { useEffect, useState } from 'preact/hooks'
import { api, apiJson, errorOf } from './api.js'
import type { JobProgress } from './job.js'
import { JobBar, runIndexJob } from './job-bar.js'

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

const STATUSES = ['indexed', 'new', 'edited', 'deleted', 'skipped', 'failed']
const SORTS: Array<[string, string]> = [
  ['title', 'Title'],
  ['-added', 'Newest'],
  ['added', 'Oldest'],
  ['-size', 'Largest'],
  ['status', 'Status'],
]
const PAGE_SIZE = 50

/** What the listing shows: a status filter ('' = all), a sort key and a page. */
interface View {
  status: string
  sort: string
  page: number
}

/** What the indexer reads (input.type auto and the per-type readers); the server checks each file's content. */
const ACCEPT = '.txt,.md,.markdown,.csv,.json,.jsonl,.parquet,.pdf,.docx,.xlsx,.html,.htm,.xhtml'

type Listing =
  | { state: 'loading' }
  | { state: 'unavailable' }
  | { state: 'error'; message: string }
  | {
      state: 'ready'
      documents: DocumentInfo[]
      /** Whether a published index exists (else the next job is the first index). */
      index: boolean
      total: number
      counts: Record<string, number>
    }

export function DocumentsPage() {
  const [listing, setListing] = useState<Listing>({ state: 'loading' })
  const [job, setJob] = useState<JobProgress | undefined>()
  const [notice, setNotice] = useState<string>('')
  const [dragging, setDragging] = useState(false)
  const [confirming, setConfirming] = useState<string | undefined>()
  const [view, setView] = useState<View>({ status: '', sort: 'title', page: 0 })

  async function load(): Promise<void> {
    try {
      const query = new URLSearchParams({
        sort: view.sort,
        limit: String(PAGE_SIZE),
        offset: String(view.page * PAGE_SIZE),
      })
      if (view.status !== '') query.set('status', view.status)
      const response = await api(`/documents?${query}`)
      // A server without the documents API (an older graphrag): the page says so instead of failing.
      if (response.status === 404 || response.status === 405) return setListing({ state: 'unavailable' })
      if (!response.ok) throw await errorOf(response)
      const body = (await response.json()) as {
        documents: DocumentInfo[]
        index?: boolean
        total?: number
        counts?: Record<string, number>
      }
      // An older server does not say: it had an index when it listed documents, all of them.
      setListing({
        state: 'ready',
        documents: body.documents,
        index: body.index ?? true,
        total: body.total ?? body.documents.length,
        counts: body.counts ?? {},
      })
    } catch (error) {
      setListing({ state: 'error', message: (error as Error).message })
    }
  }
  useEffect(() => void load(), [view])

  const firstIndex = listing.state === 'ready' && !listing.index

  /** Follows the job the change started, or starts one (the first index when there is none yet). */
  async function runUpdate(started: { id: string } | undefined): Promise<void> {
    // 409: a job is already running; following the running one shows when the index is current again.
    await runIndexJob(firstIndex ? 'index' : 'update', started, setJob)
    await load()
  }

  async function upload(files: FileList | File[]): Promise<void> {
    const list = [...files]
    if (list.length === 0) return
    setNotice(`Uploading ${list.map((f) => f.name).join(', ')}…`)
    try {
      const form = new FormData()
      for (const file of list) form.append('file', file, file.name)
      const reply = await apiJson<{ documents: DocumentInfo[]; job?: { id: string } }>('/documents', {
        method: 'POST',
        body: form,
      })
      setNotice(
        `Added ${reply.documents.map((d) => d.title).join(', ')}; ${firstIndex ? 'building' : 'updating'} the index…`,
      )
      await load()
      await runUpdate(reply.job)
      setNotice('')
    } catch (error) {
      setNotice(`Upload failed: ${(error as Error).message}`)
    }
  }

  async function remove(doc: DocumentInfo): Promise<void> {
    setConfirming(undefined)
    setNotice(`Deleting ${doc.title}…`)
    try {
      const reply = await apiJson<{ deleted: string; job?: { id: string } }>(
        `/documents/${encodeURIComponent(doc.id)}`,
        { method: 'DELETE' },
      )
      setNotice(`Deleted ${doc.title}; updating the index…`)
      await load()
      await runUpdate(reply.job)
      setNotice('')
    } catch (error) {
      setNotice(`Delete failed: ${(error as Error).message}`)
    }
  }

  if (listing.state === 'unavailable')
    return (
      <div class="documents">
        <p class="notice" id="documents-unavailable">
          This server has no documents API (GET /documents answered 404): upgrade graphrag, or add files to the
          project's input folder and run <code>graphrag update</code>.
        </p>
      </div>
    )
  const running = job !== undefined && !job.finished
  return (
    <div class="documents">
      <label
        class={`dropzone${dragging ? ' dragging' : ''}`}
        id="dropzone"
        onDragOver={(e) => {
          e.preventDefault()
          setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={(e) => {
          e.preventDefault()
          setDragging(false)
          if (e.dataTransfer !== null) void upload(e.dataTransfer.files)
        }}
      >
        <strong>Drop documents here</strong> or click to choose files
        <span class="meta">text, Markdown, CSV, JSON/JSONL, Parquet, PDF, Word, Excel, HTML</span>
        <input
          type="file"
          id="file-input"
          multiple
          accept={ACCEPT}
          disabled={running}
          onChange={(e) => {
            const files = e.currentTarget.files
            if (files !== null) void upload([...files])
            e.currentTarget.value = ''
          }}
        />
      </label>
      {notice !== '' && (
        <p class="notice" id="documents-notice">
          {notice}
        </p>
      )}
      {job !== undefined && <JobBar job={job} />}
      {firstIndex && job === undefined && (
        <section class="card" id="no-index">
          <p>
            No index yet.{' '}
            {listing.total > 0
              ? `Build one from the ${listing.total} document${listing.total === 1 ? '' : 's'} below, or add more first.`
              : 'Add documents above, then build it.'}
          </p>
          <button
            type="button"
            id="build-index"
            disabled={listing.total === 0}
            onClick={() => void runUpdate(undefined).catch((e: Error) => setNotice(`Build failed: ${e.message}`))}
          >
            Build index
          </button>
        </section>
      )}
      {listing.state === 'loading' && <p class="meta">Loading…</p>}
      {listing.state === 'error' && <p class="error">{listing.message}</p>}
      {listing.state === 'ready' && <ListingControls listing={listing} view={view} setView={setView} />}
      {listing.state === 'ready' && (
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
            {listing.documents.length === 0 && (
              <tr>
                <td colSpan={6} class="empty">
                  No documents yet: drop some above.
                </td>
              </tr>
            )}
            {listing.documents.map((doc) => (
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
                  {doc.status === 'deleted' ? (
                    <span class="meta">removed at the next update</span>
                  ) : confirming === doc.id ? (
                    <>
                      <button type="button" class="danger" onClick={() => void remove(doc)}>
                        Delete {doc.title}
                      </button>
                      <button type="button" class="secondary" onClick={() => setConfirming(undefined)}>
                        Keep
                      </button>
                    </>
                  ) : (
                    <button
                      type="button"
                      class="secondary delete"
                      disabled={running}
                      onClick={() => setConfirming(doc.id)}
                    >
                      Delete…
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  )
}

function ListingControls({
  listing,
  view,
  setView,
}: {
  listing: { total: number; counts: Record<string, number>; documents: DocumentInfo[] }
  view: View
  setView: (view: View) => void
}) {
  const all = Object.values(listing.counts).reduce((a, b) => a + b, 0)
  const first = view.page * PAGE_SIZE
  return (
    <div class="listing-controls">
      <select
        id="status-filter"
        aria-label="Status"
        value={view.status}
        onChange={(e) => setView({ ...view, status: e.currentTarget.value, page: 0 })}
      >
        <option value="">All ({all})</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {s} ({listing.counts[s] ?? 0})
          </option>
        ))}
      </select>
      <select
        id="sort"
        aria-label="Sort"
        value={view.sort}
        onChange={(e) => setView({ ...view, sort: e.currentTarget.value, page: 0 })}
      >
        {SORTS.map(([key, label]) => (
          <option key={key} value={key}>
            {label}
          </option>
        ))}
      </select>
      <span class="meta" id="listing-range">
        {listing.total === 0 ? 'none' : `${first + 1}–${first + listing.documents.length} of ${listing.total}`}
      </span>
      <button
        type="button"
        class="secondary"
        id="page-prev"
        disabled={view.page === 0}
        onClick={() => setView({ ...view, page: view.page - 1 })}
      >
        Previous
      </button>
      <button
        type="button"
        class="secondary"
        id="page-next"
        disabled={first + listing.documents.length >= listing.total}
        onClick={() => setView({ ...view, page: view.page + 1 })}
      >
        Next
      </button>
    </div>
  )
}

function formatSize(bytes: number | null): string {
  if (bytes === null) return '–'
  if (bytes < 1024) return `${bytes} B`
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
