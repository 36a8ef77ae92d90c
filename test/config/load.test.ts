import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/load.js'
import { ConfigError } from '../../src/errors.js'
import { testdir } from '../support/testdir.js'

function errorOf(fn: () => unknown): ConfigError {
  try {
    fn()
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError)
    return error as ConfigError
  }
  throw new Error('expected a ConfigError')
}

describe('loadConfig', () => {
  it('applies every default when the file is empty and resolves paths against the root', async () => {
    const root = await testdir({ 'settings.yaml': '' })
    const { settings } = loadConfig({ root, env: {} })
    expect(settings.chunking).toMatchObject({ size: 1200, overlap: 100, encoding_model: 'o200k_base' })
    expect(settings.cluster_graph).toMatchObject({ max_cluster_size: 10, use_lcc: true, seed: 3735928559 })
    expect(settings.output_storage.base_dir).toBe(join(root, 'output'))
    expect(settings.vector_store.db_uri).toBe(join(root, 'output/lancedb'))
    expect(settings.local_search.top_k_entities).toBe(10)
    expect(settings.drift_search.n_depth).toBe(3)
    expect(Object.isFrozen(settings.chunking)).toBe(true)
  })

  it('names the key path and the expected type for a bad value', async () => {
    const root = await testdir({ 'settings.yaml': 'extract_graph:\n  max_gleanings: two\n' })
    const error = errorOf(() => loadConfig({ root, env: {} }))
    expect(error.message).toContain('extract_graph.max_gleanings: expected an integer from 0 to 1000, got "two"')
    expect(error.keyPath).toBe('extract_graph.max_gleanings')
    expect(error.message.split('\n')).toHaveLength(1)
  })

  it('names a missing environment variable and its line', async () => {
    const root = await testdir({ 'settings.yaml': 'cache:\n  type: json\nreporting:\n  base_dir: ${LOG_DIR}\n' })
    const error = errorOf(() => loadConfig({ root, env: {} }))
    expect(error.message).toMatch(/settings\.yaml:4: environment variable LOG_DIR is not set/)
  })

  it('reads .env without overriding the real environment, and substitutes $VAR, ${VAR} and $$', async () => {
    const root = await testdir({
      'settings.yaml': 'reporting:\n  base_dir: ${A}-$B-$$x\n# a comment with $NOT_SET is fine\n',
      '.env': 'A=from-dotenv\nB="quoted b" # comment\n',
    })
    const { settings } = loadConfig({ root, env: { A: 'from-env' } })
    expect(settings.reporting.base_dir).toBe(join(root, 'from-env-quoted b-$x'))
  })

  it('warns about unknown keys instead of failing', async () => {
    const root = await testdir({ 'settings.yaml': 'chunking:\n  size: 300\n  colour: blue\nsomething_else: 1\n' })
    const { settings, warnings } = loadConfig({ root, env: {} })
    expect(settings.chunking.size).toBe(300)
    expect(warnings).toEqual(['chunking.colour: unknown key (ignored)', 'something_else: unknown key (ignored)'])
  })

  it('finds settings.yml and settings.json, and takes --config files', async () => {
    const yml = await testdir({ 'settings.yml': 'concurrent_requests: 3\n' })
    expect(loadConfig({ root: yml, env: {} }).settings.concurrent_requests).toBe(3)
    const json = await testdir({ 'settings.json': '{"concurrent_requests": 4}' })
    expect(loadConfig({ root: json, env: {} }).settings.concurrent_requests).toBe(4)
    const other = await testdir({ 'conf/my.yaml': 'concurrent_requests: 5\n' })
    expect(
      loadConfig({ root: other, configFile: join(other, 'conf/my.yaml'), env: {} }).settings.concurrent_requests,
    ).toBe(5)
  })

  it('reports invalid YAML with its line and a missing settings file with a hint', async () => {
    const root = await testdir({ 'settings.yaml': 'chunking:\n  size: [1,\n' })
    expect(errorOf(() => loadConfig({ root, env: {} })).message).toMatch(/settings\.yaml:\d+: invalid YAML/)
    const empty = await testdir({})
    expect(errorOf(() => loadConfig({ root: empty, env: {} })).message).toContain('graphrag init')
  })

  it('checks model settings and remembers which variable holds each key, never its value', async () => {
    const root = await testdir({
      'settings.yaml': [
        'completion_models:',
        '  default_completion_model:',
        '    model_provider: openai',
        '    model: gpt-4.1',
        '    api_key: ${GRAPHRAG_API_KEY}',
        'embedding_models:',
        '  default_embedding_model:',
        '    model_provider: azure',
        '    model: text-embedding-3-small',
        '    api_key: k',
        '',
      ].join('\n'),
    })
    const error = errorOf(() => loadConfig({ root, env: { GRAPHRAG_API_KEY: 'sk-secret-value' } }))
    expect(error.message).toContain(
      'embedding_models.default_embedding_model.api_base: required for model_provider azure',
    )
    expect(error.message).not.toContain('sk-secret-value')
    await writeFile(join(root, 'settings.yaml'), 'completion_models:\n  m:\n    model: x\n    api_key: ${K}\n')
    const loaded = loadConfig({ root, env: { K: 'sk-1234' } })
    expect(loaded.apiKeyOrigins['completion_models.m']).toBe('environment variable K')
  })

  it('loads a Microsoft GraphRAG v3 init settings file unchanged', async () => {
    const msSettings = [
      'completion_models:',
      '  default_completion_model:',
      '    model_provider: openai',
      '    model: gpt-4.1',
      '    auth_method: api_key',
      '    api_key: ${GRAPHRAG_API_KEY}',
      '    retry:',
      '      type: exponential_backoff',
      'embedding_models:',
      '  default_embedding_model:',
      '    model_provider: openai',
      '    model: text-embedding-3-large',
      '    auth_method: api_key',
      '    api_key: ${GRAPHRAG_API_KEY}',
      '    retry:',
      '      type: exponential_backoff',
      'input:',
      '  type: text',
      'chunking:',
      '  type: tokens',
      '  size: 1200',
      '  overlap: 100',
      '  encoding_model: o200k_base',
      'input_storage:',
      '  type: file',
      '  base_dir: "input"',
      'output_storage:',
      '  type: file',
      '  base_dir: "output"',
      'reporting:',
      '  type: file',
      '  base_dir: "logs"',
      'cache:',
      '  type: json',
      '  storage:',
      '    type: file',
      '    base_dir: "cache"',
      'vector_store:',
      '  type: lancedb',
      '  db_uri: output/lancedb',
      'embed_text:',
      '  embedding_model_id: default_embedding_model',
      'extract_graph:',
      '  completion_model_id: default_completion_model',
      '  prompt: "prompts/extract_graph.txt"',
      '  entity_types: [organization,person,geo,event]',
      '  max_gleanings: 1',
      'extract_graph_nlp:',
      '  text_analyzer:',
      '    extractor_type: regex_english',
      'cluster_graph:',
      '  max_cluster_size: 10',
      'extract_claims:',
      '  enabled: false',
      '  completion_model_id: default_completion_model',
      '  prompt: "prompts/extract_claims.txt"',
      '  description: "Any claims or facts that could be relevant to information discovery."',
      '  max_gleanings: 1',
      'community_reports:',
      '  completion_model_id: default_completion_model',
      '  graph_prompt: "prompts/community_report_graph.txt"',
      '  text_prompt: "prompts/community_report_text.txt"',
      '  max_length: 2000',
      '  max_input_length: 8000',
      'snapshots:',
      '  graphml: false',
      '  embeddings: false',
      'drift_search:',
      '  completion_model_id: default_completion_model',
      '  embedding_model_id: default_embedding_model',
      '  prompt: "prompts/drift_search_system_prompt.txt"',
      '  reduce_prompt: "prompts/drift_search_reduce_prompt.txt"',
      '',
    ].join('\n')
    const root = await testdir({ 'settings.yaml': msSettings, '.env': 'GRAPHRAG_API_KEY=<API_KEY>\n' })
    const { settings, warnings } = loadConfig({ root, env: {} })
    expect(warnings).toEqual([])
    expect(settings.extract_graph.prompt).toBe(join(root, 'prompts/extract_graph.txt'))
    expect(settings.completion_models.default_completion_model!.api_key).toBe('<API_KEY>')
  })
})
