import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { isPlainObject, type Declaration } from '../../src/config/fields.js'
import { loadConfig } from '../../src/config/load.js'
import { SETTINGS } from '../../src/config/schema.js'
import { renderSettingsTemplate } from '../../src/config/template.js'
import { testdir } from '../support/testdir.js'

const DECLARATIONS = SETTINGS.shape as Readonly<Record<string, Declaration>>

/** A line that declares a key or a list item, as opposed to a comment in prose. */
const KEY_LINE = /^(?:[A-Za-z_][\w,]*:(?: |$)|- )/

/** Deletes every `# ` marker in front of a key (repeatedly, so nested examples open too); prose comments stay. */
function uncommentEverything(text: string): string {
  let lines = text.split('\n')
  for (;;) {
    const next = lines.map((l) => {
      const match = /^(\s*)# (.*)$/.exec(l)
      if (!match) return l
      const rest = match[2]!.trimStart()
      return KEY_LINE.test(rest) || rest.startsWith('#') ? `${match[1]}${match[2]}` : l
    })
    if (next.join('\n') === lines.join('\n')) return next.join('\n')
    lines = next
  }
}

/** Declared key paths absent from `value` (map ids are taken from the value itself). */
function missingKeys(
  declarations: Readonly<Record<string, Declaration>>,
  value: Record<string, unknown>,
  path = '',
): string[] {
  return Object.entries(declarations).flatMap(([key, declaration]) => {
    const at = path === '' ? key : `${path}.${key}`
    if (!(key in value)) return [at]
    const inner = value[key]
    if (declaration.entries) {
      if (!isPlainObject(inner) || Object.keys(inner).length === 0) return [`${at}.<id>`]
      return Object.entries(inner).flatMap(([id, entry]) =>
        missingKeys(declaration.entries!, isPlainObject(entry) ? entry : {}, `${at}.${id}`),
      )
    }
    if (declaration.shape)
      return isPlainObject(inner) ? missingKeys(declaration.shape, inner, at) : [`${at} (not a mapping)`]
    return []
  })
}

function descriptions(declarations: Readonly<Record<string, Declaration>>, path = ''): Array<[string, string]> {
  return Object.entries(declarations).flatMap(([key, d]) => {
    const at = path === '' ? key : `${path}.${key}`
    const nested = d.shape ?? d.entries
    return [[at, d.description] as [string, string], ...(nested ? descriptions(nested, at) : [])]
  })
}

describe('settings template', () => {
  it('renders every section and loads back to the same settings as the defaults', async () => {
    const text = renderSettingsTemplate({ model: 'gpt-4.1-mini', embedding: 'text-embedding-3-small' })
    for (const section of [
      'completion_models',
      'chunking',
      'extract_graph',
      'cluster_graph',
      'local_search',
      'basic_search',
      'hybrid_search',
    ]) {
      expect(text).toMatch(new RegExp(`^${section}:`, 'm'))
    }
    expect(text).not.toMatch(/^\s*\w+: \{.+\}$/m) // block style: no non-empty flow mappings
    const root = await testdir({ 'settings.yaml': text })
    const { settings, warnings } = loadConfig({ root, env: { GRAPHRAG_API_KEY: 'k' } })
    expect(warnings).toEqual([])
    expect(settings.completion_models.default_completion_model!.model).toBe('gpt-4.1-mini')
    expect(settings.drift_search.reduce_prompt).toBe(join(root, 'prompts/drift_reduce_prompt.txt'))
    expect(settings.cluster_graph.mode).toBe('quality')
    expect(settings.chunk_graph.prompt).toBe(join(root, 'prompts/chunk_graph_edges.txt'))
    expect(settings.chunk_graph).toMatchObject({
      sequence_edges: true,
      shared_entity_edges: true,
      llm_edges: false,
      cross_document: false,
    })
    // Our hybrid_search section: every weight visible with its default.
    expect(text).toMatch(
      /^hybrid_search:\n[\s\S]*^ {2}rrf_k: 60$[\s\S]*^ {2}edge_weights:\n[\s\S]*^ {4}caused_by: 0\.22$/m,
    )
    expect(settings.hybrid_search.edge_weights.references).toBe(0.18)
    // Our server section: address and cache sizes visible with their defaults.
    expect(text).toMatch(/^server:\n[\s\S]*^ {2}host: 127\.0\.0\.1$[\s\S]*^ {2}answer_cache_size: 200$/m)
    expect(settings.server).toEqual({
      host: '127.0.0.1',
      port: 8010,
      max_body_bytes: 1048576,
      max_upload_bytes: 52428800,
      max_upload_expanded_bytes: 268435456,
      auto_update: false,
      allowed_hosts: [],
      cors_origins: [],
      ingest_roots: [],
      embedding_cache_size: 1000,
      answer_cache_size: 200,
      ingest_incremental: true,
      debug_errors: false,
      workspaces: {},
    })
  })

  it('renders offline settings that need no key and load without warnings', async () => {
    const root = await testdir({ 'settings.yaml': renderSettingsTemplate({ offline: true }) })
    const { settings, warnings } = loadConfig({ root, env: {} })
    expect(warnings).toEqual([])
    expect(settings.method).toBe('fast')
    expect(settings.completion_models).toEqual({})
    expect(settings.embedding_models.default_embedding_model!.model_provider).toBe('local')
    expect(settings.community_reports.completion_model_id).toBeNull()
    expect(settings.graph_search.completion_model_id).toBeNull()
    expect(settings.hybrid_search.completion_model_id).toBeNull()
  })

  it.each([
    ['online', {}],
    ['offline', { offline: true }],
  ])('shows every declared key, as a value or a commented-out example (%s)', (_name, options) => {
    const shown = parse(uncommentEverything(renderSettingsTemplate(options))) as Record<string, unknown>
    expect(missingKeys(DECLARATIONS, shown)).toEqual([])
  })

  it('shows the model keys that have no default as commented examples', () => {
    const text = renderSettingsTemplate()
    for (const key of [
      'api_base',
      'api_version',
      'azure_deployment_name',
      'call_args',
      'rate_limit',
      'concurrent_requests',
      'encoding_model',
      'pricing',
    ]) {
      expect(text).toMatch(new RegExp(`^    # ${key}:`, 'm'))
    }
    expect(text).toMatch(/^ {6}# max_delay: \d+$/m)
    expect(text).toMatch(/^ {4}# {3}# requests_per_period: \d+$/m)
  })

  it('writes an offline chat-model example that works once uncommented', async () => {
    const text = renderSettingsTemplate({ offline: true })
    const opened = text
      .split('\n')
      .map((l) => (/^# (completion_models:|\s)/.test(l) ? l.slice(2) : l))
      .join('\n')
    expect(opened).not.toBe(text)
    const root = await testdir({ 'settings.yaml': opened })
    const { settings, warnings } = loadConfig({ root, env: { GRAPHRAG_API_KEY: 'k' } })
    expect(warnings).toEqual([])
    expect(settings.completion_models.default_completion_model).toMatchObject({
      model_provider: 'openai',
      model: 'gpt-4.1',
      api_key: 'k',
      api_base: null,
    })
  })

  it('words no description like a key, so commented-out keys and prose stay apart', () => {
    const keyLike = descriptions(DECLARATIONS).filter(([, text]) => KEY_LINE.test(text) || text.startsWith('#'))
    expect(keyLike).toEqual([])
  })
})
