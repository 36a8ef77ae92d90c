/**
 * The report of /diagnostics and `graphrag diagnostics`: the index and its tables, vector tables,
 * model reachability, the settings in force (secrets masked) and what this build offers.
 */
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { LoadedConfig, Settings } from '../config/index.js'
import { CHUNK_EDGES } from '../model/index.js'
import { readdirOrEmpty } from '../storage/fs-errors.js'
import { readableIndex } from '../storage/generations.js'
import { remoteName } from '../storage/object/remote.js'
import { type PublishedGeneration, publishedIndex } from '../storage/object/remote-index.js'
import { ParquetTableStore } from '../storage/index.js'
import { decodeArrow } from '../storage/parquet.js'
import { openVectorStore } from '../storage/vector-store.js'
import { maskUrlSecretsDeep } from '../text/url-secrets.js'
import { VERSION } from '../version.js'
import { publicMessage } from './index-jobs.js'
import type { ModelProbe, ModelReach } from './model-probe.js'
import { entityResolutionCounts } from './resolution-counts.js'
import { type SeedDiagnostics, seedDiagnostics } from './seed-diagnostics.js'
import { QUERY_METHODS } from './requests.js'

/** Semantic version of the HTTP API (independent of the package version). */
export const API_VERSION = '1.0.0'

export interface DiagnosticsReport extends SeedDiagnostics {
  api_version: string
  graphrag_version: string
  root: string
  /**
   * `dir`: the folder, or for an index in object storage the published generation's location
   * (`az://…/.generations/<id>`); `object_storage` then says which generation and its key prefix.
   */
  index: {
    present: boolean
    dir: string
    completed_at: string | null
    object_storage?: PublishedGeneration
  }
  tables: Array<{ name: string; rows: number }>
  vector_tables: Array<{ name: string; rows: number; dimension: number | null }> | { error: string }
  models: ModelReach[]
  counts: {
    relationships: number | null
    chunk_edges: Record<string, number> | null
    entity_aliases: number | null
    /** Entity resolution's merged, dropped (noise) and curation counts of the last run (stats.json). */
    entity_resolution: Record<string, number> | null
  }
  settings: unknown
  features: Record<string, unknown>
}

/** The report, with credentials inside URLs masked wherever they appear (settings, model errors). */
export async function diagnose(loaded: LoadedConfig, probe: ModelProbe): Promise<DiagnosticsReport> {
  return maskUrlSecretsDeep(await report(loaded, probe)) as DiagnosticsReport
}

async function report(loaded: LoadedConfig, probe: ModelProbe): Promise<DiagnosticsReport> {
  const { settings } = loaded
  const { dataDir: dir, dbUri } = await readableIndex(settings.output_storage.base_dir, settings.vector_store.db_uri)
  const remote = await publishedIndex(settings.output_storage.base_dir)
  const tables = await tableRows(dir)
  const rows = (name: string) => tables.find((t) => t.name === name)?.rows ?? null
  return {
    api_version: API_VERSION,
    graphrag_version: VERSION,
    root: settings.root,
    index: {
      present: rows('text_units') !== null,
      dir: remoteName(dir),
      // In object storage the pulled copy's files date from the pull: the pointer says when the run published.
      completed_at: remote?.published ?? (await completedAt(dir)),
      ...(remote === undefined ? {} : { object_storage: remote }),
    },
    tables,
    vector_tables: await vectorTables(dbUri ?? settings.vector_store.db_uri),
    models: await probe.check(settings),
    counts: {
      relationships: rows('relationships'),
      chunk_edges: await chunkEdgeCounts(dir),
      entity_aliases: rows('entity_aliases'),
      entity_resolution: await entityResolutionCounts(dir),
    },
    settings: masked(settings),
    features: features(settings),
    // The seed design's blocks (feature_flags, noise_control, relation_weights, entity_aliases).
    ...(await seedDiagnostics(settings, dir, rows('entities'))),
  }
}

/** Every Parquet table of the index with its row count (read from the file's metadata). */
async function tableRows(dir: string): Promise<Array<{ name: string; rows: number }>> {
  const names = (await readdirOrEmpty(dir)).filter((f) => f.endsWith('.parquet')).sort()
  return Promise.all(
    names.map(async (file) => ({
      name: file.replace(/\.parquet$/, ''),
      rows: decodeArrow(await readFile(join(dir, file))).numRows,
    })),
  )
}

/** When the last run finished: stats.json is written at the end of every run. */
async function completedAt(dir: string): Promise<string | null> {
  try {
    return (await stat(join(dir, 'stats.json'))).mtime.toISOString()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

async function vectorTables(dbUri: string): Promise<DiagnosticsReport['vector_tables']> {
  // A local folder with nothing in it has no tables (LanceDB would create it); az:// and s3:// are asked.
  if (!dbUri.includes('://') && (await readdirOrEmpty(dbUri)).length === 0) return []
  try {
    const store = await openVectorStore(dbUri)
    try {
      const names = (await store.tableNames()).sort()
      return await Promise.all(names.map(async (name) => ({ name, ...(await store.describe(name)) })))
    } finally {
      store.close()
    }
  } catch (error) {
    return { error: publicMessage(error) }
  }
}

async function chunkEdgeCounts(dir: string): Promise<Record<string, number> | null> {
  const store = new ParquetTableStore(dir)
  if (!(await store.has(CHUNK_EDGES.name))) return null
  const counts: Record<string, number> = {}
  for (const edge of await store.read(CHUNK_EDGES)) counts[edge.relation] = (counts[edge.relation] ?? 0) + 1
  return Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : 1)))
}

const SECRET_KEY = /key|token|secret|password|connection_string/i

/** The settings with every secret-looking value replaced (keys, tokens, connection strings), mirror folders named by their store. */
function masked(value: unknown, key = ''): unknown {
  if (typeof value === 'string' && SECRET_KEY.test(key) && value !== '') return '***'
  // A folder standing in for object storage is shown as the az:// or s3:// location it mirrors.
  if (typeof value === 'string') return remoteName(value)
  if (Array.isArray(value)) return value.map((v) => masked(v))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, masked(v, k)]))
  return value
}

function features(settings: Settings): Record<string, unknown> {
  return {
    query_methods: QUERY_METHODS,
    index_modes: ['index', 'update'],
    index_method: settings.method ?? 'standard',
    claims: settings.extract_claims.enabled,
    chunk_graph_llm_edges: settings.chunk_graph.llm_edges,
    chunk_graph_cross_document: settings.chunk_graph.cross_document,
    answer_cache_size: settings.server.answer_cache_size,
    embedding_cache_size: settings.server.embedding_cache_size,
  }
}
