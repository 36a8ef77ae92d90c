/** An index job's live progress bar, and the "Build index" button of a project without an index. */
import { useState } from 'preact/hooks'
import { api, errorOf, postJson } from './api.js'
import { followJob, type JobProgress } from './job.js'

export function JobBar({ job }: { job: JobProgress }) {
  const share = job.total > 0 ? Math.min(1, job.current / job.total) : job.finished ? 1 : 0
  const first = job.mode === 'index'
  return (
    <div class="job" id="job" data-state={job.finished ? (job.error === undefined ? 'done' : 'error') : 'running'}>
      <div class="job-line">
        <strong>{job.mode ?? 'update'}</strong>{' '}
        {job.finished ? (job.error === undefined ? 'finished' : 'failed') : 'running'}
        {' · '}
        {job.stage}
        {job.detail !== '' && `: ${job.detail}`}
      </div>
      <progress max={1} value={share} />
      {!job.finished && (
        <p class="meta">
          {first
            ? 'Questions can be asked once this index is published.'
            : 'Questions are answered from the previous index until this update is published.'}
        </p>
      )}
      {job.error !== undefined && <p class="error">{job.error}</p>}
      {job.summary !== undefined && <p class="meta">{job.summary}</p>}
    </div>
  )
}

/**
 * Starts an index job (`mode`) or, when one is already running (409), follows that one; reports
 * its progress until it ends.
 */
export async function runIndexJob(
  mode: 'index' | 'update',
  started: { id: string } | undefined,
  report: (progress: JobProgress) => void,
): Promise<void> {
  let id = started?.id
  if (id === undefined) {
    const response = await api('/index', postJson({ mode }))
    if (response.status !== 409 && !response.ok) throw await errorOf(response)
    id = response.status === 409 ? undefined : ((await response.json()) as { job: string }).job
  }
  await followJob(id, report)
}

/** "Build index": the first index of the project's input files, with its progress; `onDone` once it ends. */
export function BuildIndex({ onDone, disabled = false }: { onDone: () => void; disabled?: boolean }) {
  const [job, setJob] = useState<JobProgress | undefined>()
  const [error, setError] = useState('')
  const running = job !== undefined && !job.finished
  const start = async () => {
    setError('')
    try {
      await runIndexJob('index', undefined, setJob)
      onDone()
    } catch (e) {
      setError((e as Error).message)
    }
  }
  return (
    <div class="build-index">
      <button type="button" id="build-index" disabled={disabled || running} onClick={() => void start()}>
        Build index
      </button>
      {job !== undefined && <JobBar job={job} />}
      {error !== '' && <p class="error">{error}</p>}
    </div>
  )
}
