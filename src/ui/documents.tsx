/**
 * Documents: the input documents (GET /documents, which scans the input storage), upload by drag and
 * drop or file picker (POST /documents), delete (DELETE /documents/{id}), "Update now" for files
 * changed on disk, then `update` with its progress read live from the job stream. Queries keep using
 * the previous index until the update publishes the new one.
 */
import { useState } from 'preact/hooks'
import { apiJson } from './api.js'
import type { JobProgress } from './job.js'
import { JobBar, runIndexJob } from './job-bar.js'
import { DocumentsTable, type DocumentInfo } from './documents/table.js'
import { ListingControls, type View } from './documents/controls.js'
import { useListing, type ReadyListing } from './documents/listing.js'
import { Dropzone } from './documents/dropzone.js'
import { NoIndexCard, PendingChanges } from './documents/cards.js'

export type { DocumentInfo } from './documents/table.js'

export function DocumentsPage() {
  const [view, setView] = useState<View>({ status: '', sort: 'title', page: 0 })
  const { listing, load } = useListing(view)
  const [job, setJob] = useState<JobProgress | undefined>()
  const [notice, setNotice] = useState<string>('')
  const firstIndex = listing.state === 'ready' && !listing.index
  const running = job !== undefined && !job.finished

  /** Follows the job the change started, or starts one (the first index when there is none yet). */
  async function runUpdate(started: { id: string } | undefined): Promise<void> {
    // 409: a job is already running; following the running one shows when the index is current again.
    await runIndexJob(firstIndex ? 'index' : 'update', started, setJob)
    await load()
  }
  /** Runs `change` with a notice while it lasts, then the update job it started; a failure stays as the notice. */
  const change = (what: string, start: () => Promise<{ job?: { id: string } }>) => async () => {
    setNotice(`${what}…`)
    try {
      const reply = await start()
      await load()
      await runUpdate(reply.job)
      setNotice('')
    } catch (error) {
      setNotice(`${what} failed: ${(error as Error).message}`)
    }
  }
  const upload = (files: File[]) =>
    files.length > 0 && void change(`Uploading ${files.map((f) => f.name).join(', ')}`, () => postFiles(files))()
  const remove = (doc: DocumentInfo) =>
    void change(`Deleting ${doc.title}`, () =>
      apiJson(`/documents/${encodeURIComponent(doc.id)}`, { method: 'DELETE' }),
    )()

  if (listing.state === 'unavailable') return <Unavailable />
  return (
    <div class="documents">
      <Dropzone disabled={running} onFiles={upload} />
      {notice !== '' && (
        <p class="notice" id="documents-notice">
          {notice}
        </p>
      )}
      {job !== undefined && <JobBar job={job} />}
      {firstIndex && job === undefined && <NoIndexCard total={listing.total} onBuild={change('Building', noJob)} />}
      {listing.state === 'ready' && listing.index && (
        <PendingChanges counts={listing.counts} busy={running} onScan={load} onUpdate={change('Updating', noJob)} />
      )}
      {listing.state === 'loading' && <p class="meta">Loading…</p>}
      {listing.state === 'error' && <p class="error">{listing.message}</p>}
      {listing.state === 'ready' && (
        <ReadyPage listing={listing} view={view} setView={setView} busy={running} onDelete={remove} />
      )}
    </div>
  )
}

function ReadyPage(props: {
  listing: ReadyListing
  view: View
  setView: (view: View) => void
  busy: boolean
  onDelete: (doc: DocumentInfo) => void
}) {
  return (
    <>
      <ListingControls listing={props.listing} view={props.view} setView={props.setView} />
      <DocumentsTable documents={props.listing.documents} busy={props.busy} onDelete={props.onDelete} />
    </>
  )
}

/** A change that started no job of its own: the page starts the update (or first index) itself. */
const noJob = async (): Promise<{ job?: { id: string } }> => ({})

function postFiles(files: File[]): Promise<{ documents: DocumentInfo[]; job?: { id: string } }> {
  const form = new FormData()
  for (const file of files) form.append('file', file, file.name)
  return apiJson('/documents', { method: 'POST', body: form })
}

function Unavailable() {
  return (
    <div class="documents">
      <p class="notice" id="documents-unavailable">
        This server has no documents API (GET /documents answered 404): upgrade graphrag, or add files to the project's
        input folder and run <code>graphrag update</code>.
      </p>
    </div>
  )
}
