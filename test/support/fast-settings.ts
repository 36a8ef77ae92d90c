/**
 * settings.yaml of small fast-method test projects: the local hashing embedder (384 dimensions) and
 * extractive community reports, so indexing needs no model; with `fastChatSettingsYaml` the fake
 * model server answers the chat calls (queries, chunk-graph relations).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { PROJECT_ROOT } from './shared.js'

const LOCAL_EMBEDDER_AND_REPORTS = [
  'embedding_models:',
  '  default_embedding_model:',
  '    model_provider: local',
  '    model: hashing-384',
  '    dimensions: 384',
  'community_reports:',
  '  completion_model_id: null',
  'vector_store:',
  '  vector_size: 384',
]

const yaml = (lines: readonly string[]) => [...lines, ''].join('\n')

/** No model at all; `extra` lines are appended (further sections). */
export function offlineFastSettingsYaml(extra: readonly string[] = []): string {
  return yaml(['method: fast', ...LOCAL_EMBEDDER_AND_REPORTS, ...extra])
}

/** The fake server at `baseUrl` as the chat model (no retries), with `apiKey`; `extra` lines appended. */
export function fastChatSettingsYaml(
  baseUrl: string,
  options: { apiKey?: string; extra?: readonly string[] } = {},
): string {
  return yaml([
    'method: fast',
    'completion_models:',
    '  default_completion_model:',
    '    model_provider: openai',
    '    model: gpt-4.1-mini',
    `    api_key: ${options.apiKey ?? 'sk-secret-test-key'}`,
    `    api_base: ${baseUrl}`,
    '    retry:',
    '      max_retries: 0',
    ...LOCAL_EMBEDDER_AND_REPORTS,
    ...(options.extra ?? []),
  ])
}

/**
 * fixtures/demo's offline settings with the fake server at `baseUrl` as the chat model, answering the
 * search methods named (`local`, `basic`, …); the others keep their offline answers.
 */
export async function demoSettingsWithChat(baseUrl: string, methods: readonly string[]): Promise<string> {
  const demo = await readFile(join(PROJECT_ROOT, 'fixtures', 'demo', 'settings.yaml'), 'utf8')
  const chat = [
    'completion_models:',
    '  default_completion_model:',
    '    model_provider: openai',
    '    model: gpt-4.1-mini',
    '    api_key: sk-ui-test',
    `    api_base: ${baseUrl}`,
    '    retry:',
    '      max_retries: 0',
  ].join('\n')
  const answering = new RegExp(`(${methods.map((m) => `${m}_search`).join('|')}):\\n {2}completion_model_id: null`, 'g')
  return demo
    .replace('completion_models: {}', chat)
    .replace(answering, '$1:\n  completion_model_id: default_completion_model')
}

/** Settings of a project served with no model at all (no chat model even for hybrid search); `extra` appended. */
export function noModelSettingsYaml(extra: readonly string[] = []): string {
  return yaml([
    'embedding_models:',
    '  default_embedding_model:',
    '    model_provider: local',
    '    model: hashing-384',
    '    dimensions: 384',
    'completion_models: {}',
    'community_reports:',
    '  completion_model_id: null',
    'hybrid_search:',
    '  completion_model_id: null',
    'vector_store:',
    '  vector_size: 384',
    ...extra,
  ])
}
