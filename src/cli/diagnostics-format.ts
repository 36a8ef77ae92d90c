/** The text form of the diagnostics report (the JSON form is the report itself). */
import type { DiagnosticsReport } from '../server/diagnostics.js'

export function formatDiagnostics(r: DiagnosticsReport): string {
  const lines = [`graphrag ${r.graphrag_version} (API ${r.api_version}), project ${r.root}`]
  lines.push(
    r.index.present
      ? `index: ${r.index.dir} (last run finished ${r.index.completed_at ?? 'unknown'})`
      : `index: none in ${r.index.dir}`,
  )
  const remote = r.index.object_storage
  if (remote !== undefined)
    lines.push(
      `  generation ${remote.generation}, published ${remote.published}; Microsoft GraphRAG reads it with output_storage.base_dir: ${remote.base_dir}`,
    )
  for (const t of r.tables) lines.push(`  ${t.name.padEnd(28)} ${String(t.rows).padStart(8)} rows`)
  if (Array.isArray(r.vector_tables)) {
    lines.push(`vector tables: ${r.vector_tables.length}`)
    for (const t of r.vector_tables)
      lines.push(`  ${t.name.padEnd(28)} ${String(t.rows).padStart(8)} rows, dimension ${t.dimension ?? '?'}`)
  } else {
    lines.push(`vector tables: ${r.vector_tables.error}`)
  }
  lines.push('models:')
  for (const m of r.models) {
    lines.push(
      `  ${m.group}.${m.id} (${m.provider}/${m.model}): ${m.reachable ? 'reachable' : `NOT reachable: ${m.error ?? ''}`}`,
    )
    for (const e of m.endpoints ?? [])
      lines.push(`    ${e.endpoint}: ${e.reachable ? 'answers' : `does NOT answer: ${e.error ?? ''}`}`)
  }
  const edges =
    r.counts.chunk_edges === null
      ? 'none'
      : Object.entries(r.counts.chunk_edges)
          .map(([k, v]) => `${k} ${v}`)
          .join(', ')
  lines.push(
    `relationships: ${r.counts.relationships ?? 'none'}; chunk edges: ${edges}; entity aliases: ${r.counts.entity_aliases ?? 'none'}`,
  )
  const resolution = r.counts.entity_resolution
  if (resolution !== null)
    lines.push(
      `entity resolution: ${Object.entries(resolution)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    )
  lines.push(
    `features: ${Object.entries(r.features)
      .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('/') : String(v)}`)
      .join(', ')}`,
  )
  return `${lines.join('\n')}\n`
}
