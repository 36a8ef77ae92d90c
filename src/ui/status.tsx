/** Status: /diagnostics (index, tables, vector tables, models reachable) and the last run's stats and cost. */
import { useEffect, useState } from 'preact/hooks'
import { apiJson } from './api.js'
import { BuildIndex } from './job-bar.js'

interface Diagnostics {
  graphrag_version: string
  api_version: string
  root: string
  index: { present: boolean; dir: string; completed_at: string | null; generation?: unknown }
  tables: { name: string; rows: number }[]
  vector_tables: { name: string; rows: number; dimension: number | null }[] | { error: string }
  models: { id: string; group: string; provider: string; model: string; reachable: boolean; error?: string }[]
}

interface LlmTotals {
  calls?: number
  cacheHits?: number
  failures?: number
  promptTokens?: number
  completionTokens?: number
  costUsd?: number | null
}

interface RunStats {
  total_runtime?: number
  num_documents?: number
  update_documents?: number
  interrupted?: boolean
  llm_totals?: LlmTotals
  workflows?: Record<string, { status?: string; overall?: number; skipped?: boolean }>
}

export function StatusPage() {
  const [report, setReport] = useState<Diagnostics | string | undefined>()
  const [stats, setStats] = useState<RunStats | null | string | undefined>()
  const refresh = () => {
    setReport(undefined)
    apiJson<Diagnostics>('/diagnostics').then(setReport, (e: Error) => setReport(e.message))
    apiJson<{ stats: RunStats | null }>('/ui/stats').then(
      (r) => setStats(r.stats),
      (e: Error) => setStats(e.message),
    )
  }
  useEffect(refresh, [])
  if (report === undefined) return <p class="meta">Checking the index and the models…</p>
  if (typeof report === 'string') return <p class="error">{report}</p>
  const vectors = report.vector_tables
  return (
    <div class="status" id="status">
      <section class="card">
        <h3>Index</h3>
        <p id="index-state" class={report.index.present ? 'ok' : 'error'}>
          {report.index.present
            ? `Indexed; the generation in use was published ${report.index.completed_at === null ? '(unknown)' : new Date(report.index.completed_at).toLocaleString()}`
            : 'No index yet: put documents in the input folder (or add them on the Documents page), then build the index.'}
        </p>
        {!report.index.present && <BuildIndex onDone={refresh} />}
        {report.index.generation !== undefined && <p class="meta">generation {String(report.index.generation)}</p>}
        <p class="meta">
          {report.index.dir} · graphrag {report.graphrag_version} · API {report.api_version}
        </p>
        <button type="button" class="secondary" onClick={refresh}>
          Refresh
        </button>
      </section>
      <section class="card">
        <h3>Models</h3>
        {report.models.length === 0 && <p class="meta">No models configured.</p>}
        <ul class="models">
          {report.models.map((m) => (
            <li key={`${m.group}/${m.id}`} class={m.reachable ? 'ok' : 'error'}>
              {m.reachable ? '● ' : '○ '}
              <strong>{m.id}</strong> {m.provider}/{m.model}: {m.reachable ? 'reachable' : (m.error ?? 'unreachable')}
            </li>
          ))}
        </ul>
      </section>
      <section class="card">
        <h3>Tables</h3>
        <table id="tables">
          <tbody>
            {report.tables.map((t) => (
              <tr key={t.name}>
                <td>{t.name}</td>
                <td class="num">{t.rows}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h3>Vector tables</h3>
        {'error' in vectors ? (
          <p class="error">{vectors.error}</p>
        ) : (
          <table>
            <tbody>
              {vectors.map((t) => (
                <tr key={t.name}>
                  <td>{t.name}</td>
                  <td class="num">{t.rows}</td>
                  <td class="num">{t.dimension ?? '–'} dims</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section class="card" id="last-run">
        <h3>Last run</h3>
        <LastRun stats={stats} />
      </section>
    </div>
  )
}

function LastRun({ stats }: { stats: RunStats | null | string | undefined }) {
  if (stats === undefined) return <p class="meta">Loading…</p>
  if (stats === null) return <p class="meta">No run yet.</p>
  if (typeof stats === 'string') return <p class="error">{stats}</p>
  const llm = stats.llm_totals ?? {}
  const cost = typeof llm.costUsd === 'number' ? `$${llm.costUsd.toFixed(4)}` : 'unknown (a model has no price)'
  const workflows = Object.entries(stats.workflows ?? {})
  return (
    <>
      <p>
        {stats.interrupted === true && <strong class="error">Interrupted. </strong>}
        {(stats.total_runtime ?? 0).toFixed(1)} s · {stats.num_documents ?? 0} documents
        {stats.update_documents ? ` (${stats.update_documents} updated)` : ''}
      </p>
      <p id="run-cost">
        {llm.calls ?? 0} model calls ({llm.cacheHits ?? 0} from cache, {llm.failures ?? 0} failed) ·{' '}
        {(llm.promptTokens ?? 0) + (llm.completionTokens ?? 0)} tokens · cost {cost}
      </p>
      <table>
        <tbody>
          {workflows.map(([name, w]) => (
            <tr key={name}>
              <td>{name}</td>
              <td>{w.skipped ? 'skipped' : (w.status ?? '')}</td>
              <td class="num">{(w.overall ?? 0).toFixed(2)} s</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  )
}
