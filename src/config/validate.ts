/** Pure validation: raw parsed settings in, frozen Settings (or every error) out. */
import { isAbsolute, join, resolve } from 'node:path'
import {
  isRemoteStorage,
  lanceStorageOptions,
  registerLanceOptions,
  mirrorDir,
  registerRemote,
  remoteLocation,
  type StorageSettings,
} from '../storage/object/remote.js'
import { isPlainObject, type Issues } from './fields.js'
import { RULES } from './rules.js'
import { SETTINGS, type RawSettings, type Settings } from './schema.js'
import { v2SettingsMessage } from './v2-settings.js'

export type ValidationResult =
  | { ok: true; settings: Settings; warnings: string[] }
  | { ok: false; errors: string[]; warnings: string[] }

export function validateSettings(raw: unknown, context: { root: string; configFile?: string }): ValidationResult {
  const issues: Issues = { errors: [], warnings: [] }
  const v2 = isPlainObject(raw) ? v2SettingsMessage(raw) : undefined
  if (v2 !== undefined) return { ok: false, errors: [v2], warnings: [] }
  const parsed = SETTINGS.parse(raw, '', issues)
  if (issues.errors.length === 0) for (const rule of RULES) issues.errors.push(...rule(parsed))
  if (issues.errors.length > 0) return { ok: false, errors: issues.errors, warnings: issues.warnings }
  const settings = resolvePaths(parsed, resolve(context.root), context.configFile)
  return { ok: true, settings: deepFreeze(settings), warnings: issues.warnings }
}

/** Makes every path absolute against the project root (never process.chdir). */
function resolvePaths(s: RawSettings, root: string, configFile: string | undefined): Settings {
  const abs = (p: string) => (isAbsolute(p) ? p : resolve(root, p))
  const absOrNull = (p: string | null) => (p === null ? null : abs(p))
  // A blob or s3 setting gets a local mirror folder as its base_dir (see storage/object/remote.ts).
  const place = <T extends StorageSettings>(setting: string, st: T): T => {
    if (!isRemoteStorage(st)) return { ...st, base_dir: abs(st.base_dir) }
    const location = remoteLocation(setting, st)
    const dir = mirrorDir(root, setting, location)
    registerRemote(dir, location)
    return { ...st, base_dir: dir }
  }
  const output = place('output_storage', s.output_storage)
  return {
    ...s,
    root,
    configFile,
    input_storage: place('input_storage', s.input_storage),
    output_storage: output,
    update_output_storage: place('update_output_storage', s.update_output_storage),
    cache: { ...s.cache, storage: place('cache.storage', s.cache.storage) },
    reporting: place('reporting', s.reporting),
    vector_store: { ...s.vector_store, db_uri: vectorStoreUri(s, output.base_dir, abs) },
    extract_graph: { ...s.extract_graph, prompt: absOrNull(s.extract_graph.prompt) },
    summarize_descriptions: { ...s.summarize_descriptions, prompt: absOrNull(s.summarize_descriptions.prompt) },
    extract_claims: { ...s.extract_claims, prompt: absOrNull(s.extract_claims.prompt) },
    community_reports: {
      ...s.community_reports,
      graph_prompt: absOrNull(s.community_reports.graph_prompt),
      text_prompt: absOrNull(s.community_reports.text_prompt),
    },
    local_search: { ...s.local_search, prompt: absOrNull(s.local_search.prompt) },
    global_search: {
      ...s.global_search,
      map_prompt: absOrNull(s.global_search.map_prompt),
      reduce_prompt: absOrNull(s.global_search.reduce_prompt),
      knowledge_prompt: absOrNull(s.global_search.knowledge_prompt),
    },
    drift_search: {
      ...s.drift_search,
      prompt: absOrNull(s.drift_search.prompt),
      reduce_prompt: absOrNull(s.drift_search.reduce_prompt),
    },
    basic_search: { ...s.basic_search, prompt: absOrNull(s.basic_search.prompt) },
    chunk_graph: { ...s.chunk_graph, prompt: absOrNull(s.chunk_graph.prompt) },
    graph_search: { ...s.graph_search, prompt: absOrNull(s.graph_search.prompt) },
    hybrid_search: { ...s.hybrid_search, prompt: absOrNull(s.hybrid_search.prompt) },
  }
}

/** vector_store.db_uri's default: the LanceDB folder of the index, wherever output_storage puts it. */
const DEFAULT_DB_URI = 'output/lancedb'

/**
 * LanceDB's URI: az:// and s3:// URIs as they are (LanceDB opens them itself); a folder inside an
 * object-storage output_storage's base_dir moves into its mirror, so the vectors are published with
 * the tables of the same generation. The default follows output_storage.base_dir (local folder or
 * store, whatever its name): `output/lancedb` read literally would leave the vectors on local disk,
 * outside the index, when the index is anywhere but `<root>/output`.
 */
function vectorStoreUri(s: RawSettings, outputDir: string, abs: (p: string) => string): string {
  const uri = s.vector_store.db_uri || DEFAULT_DB_URI
  if (uri === DEFAULT_DB_URI) return join(outputDir, 'lancedb')
  if (/^(az|s3):\/\//.test(uri)) {
    registerLanceOptions(uri, lanceStorageOptions(s.output_storage))
    return uri
  }
  if (isRemoteStorage(s.output_storage) && !isAbsolute(uri)) {
    const base = s.output_storage.base_dir.replace(/^\.?\/+|\/+$/g, '')
    const parts = uri.replace(/^\.\//, '')
    if (base === '' || parts === base || parts.startsWith(`${base}/`))
      return join(outputDir, base === '' ? parts : parts.slice(base.length + 1))
  }
  return abs(uri)
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value)
    for (const v of Object.values(value)) deepFreeze(v)
  }
  return value
}
