/** Follows an index job's SSE stream (GET /index/stream) and reports its progress until it ends. */
import { api, errorOf } from './api.js'
import { readSse } from './sse.js'

export interface JobProgress {
  id: string | undefined
  mode: string | undefined
  stage: string
  detail: string
  current: number
  total: number
  finished: boolean
  error?: string
  /** What the result said: run time, or that the index was already up to date. */
  summary?: string
}

export async function followJob(id: string | undefined, report: (progress: JobProgress) => void): Promise<void> {
  let progress: JobProgress = {
    id,
    mode: undefined,
    stage: 'starting',
    detail: '',
    current: 0,
    total: 0,
    finished: false,
  }
  const set = (change: Partial<JobProgress>) => report((progress = { ...progress, ...change }))
  set({})
  const response = await api(id === undefined ? '/index/stream' : `/index/stream?job=${encodeURIComponent(id)}`)
  if (!response.ok) throw await errorOf(response)
  for await (const message of readSse(response)) {
    const data = JSON.parse(message.data) as Record<string, unknown>
    if (message.event === 'start') set({ id: String(data.job), mode: String(data.mode) })
    else if (message.event === 'result') set({ summary: summary(data) })
    else if (data.stage === 'done') set({ finished: true, stage: 'done', detail: '', current: 1, total: 1 })
    else if (data.stage === 'error') set({ finished: true, stage: 'error', error: String(data.error) })
    else
      set({
        stage: String(data.stage),
        detail: String(data.detail ?? ''),
        current: Number(data.current ?? 0),
        total: Number(data.total ?? 0),
      })
  }
  if (!progress.finished) set({ finished: true, error: 'the job stream ended before the job did' })
}

function summary(result: Record<string, unknown>): string {
  if (result.up_to_date === true) return 'The index was already up to date.'
  const seconds = typeof result.seconds === 'number' ? `${result.seconds.toFixed(1)} s` : ''
  return `The new index is published${seconds === '' ? '' : ` (${seconds})`}; questions now use it.`
}
