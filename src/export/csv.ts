/** nodes.csv and edges.csv for spreadsheets and graph databases' bulk importers (RFC 4180 quoting by csv-stringify). */
import { stringify } from 'csv-stringify/sync'
import type { ExportGraph } from './build-graph.js'

const NODE_COLUMNS = [
  'id',
  'entity_id',
  'human_readable_id',
  'type',
  'description',
  'degree',
  'frequency',
  'community',
] as const
const NODE_TAIL = ['report_title', 'report_summary', 'x', 'y', 'size', 'color'] as const
const EDGE_COLUMNS = [
  'id',
  'source',
  'target',
  'description',
  'weight',
  'combined_degree',
  'human_readable_id',
] as const

/** One row per entity; `id` is the title, the key edges.csv's source and target refer to. */
export function writeNodesCsv(graph: ExportGraph): string {
  const columns = [...NODE_COLUMNS, ...graph.getAttribute('levels').map((l) => `community_${l}`), ...NODE_TAIL]
  const rows = graph.mapNodes((node, attributes) => {
    const values: Record<string, unknown> = { ...attributes, id: node }
    return columns.map((c) => values[c])
  })
  return stringify([columns, ...rows])
}

/** One row per relationship, keyed by its id. */
export function writeEdgesCsv(graph: ExportGraph): string {
  const rows = graph.mapEdges((edge, attributes, source, target) => {
    const values: Record<string, unknown> = { ...attributes, id: edge, source, target }
    return EDGE_COLUMNS.map((c) => values[c])
  })
  return stringify([[...EDGE_COLUMNS], ...rows])
}
