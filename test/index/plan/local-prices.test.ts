/**
 * The dry run prices models as the run meters them: local runtimes (Ollama, LM Studio, the offline
 * embedder) at $0, a hosted model of unknown price as "price unknown", never $0.
 */
import { describe, expect, it } from 'vitest'
import { printDryRun } from '../../../src/cli/dry-run.js'
import { loadConfig } from '../../../src/config/load.js'
import { estimateWorkflows } from '../../../src/index/plan/estimate-run.js'
import type { WorkflowName } from '../../../src/index/workflows/index.js'
import { testdir } from '../../support/testdir.js'

const WORKFLOWS: WorkflowName[] = [
  'create_base_text_units',
  'extract_graph',
  'finalize_graph',
  'create_communities',
  'create_community_reports',
  'generate_text_embeddings',
]

const models = (provider: string, chat: string, embedding: string, apiBase = '') =>
  ['completion_models', 'embedding_models']
    .map(
      (group) =>
        `${group}:\n  default_${group === 'completion_models' ? 'completion' : 'embedding'}_model:\n    model_provider: ${provider}\n    model: ${group === 'completion_models' ? chat : embedding}\n${apiBase}`,
    )
    .join('')

async function totalCost(yaml: string): Promise<number | null> {
  const root = await testdir({ 'settings.yaml': `${yaml}vector_store:\n  vector_size: 8\n` })
  const { settings } = loadConfig({ root, env: {} })
  return estimateWorkflows(settings, WORKFLOWS, { chunks: 20, chunkTokens: 12_000 }).total.costUsd
}

describe('dry-run prices of local and hosted models', () => {
  it.each([
    ['ollama', models('ollama', 'llama3.2', 'nomic-embed-text')],
    [
      'ollama on another machine',
      models('ollama', 'llama3.2', 'nomic-embed-text', '    api_base: http://gpu-box:11434/v1\n'),
    ],
    ['lm_studio', models('lm_studio', 'qwen2.5-7b-instruct', 'text-embedding-nomic-embed-text-v1.5')],
    ['LiteLLM-style ollama/ names', models('openai', 'ollama/llama3.2', 'ollama/nomic-embed-text')],
  ])('%s costs $0', async (_name, yaml) => {
    expect(await totalCost(yaml)).toBe(0)
  })

  it('a hosted server of unknown price stays unknown, a priced model is priced', async () => {
    const vllm = models('hosted_vllm', 'qwen3-32b', 'bge-m3', '    api_base: http://127.0.0.1:8000/v1\n')
    expect(await totalCost(vllm)).toBeNull()
    // A local-looking api_base does not make an OpenAI-protocol model free: only the provider does.
    const onLoopback = models(
      'openai',
      'my-finetune',
      'my-embedder',
      '    api_base: http://localhost:8080/v1\n    api_key: null\n',
    )
    expect(await totalCost(onLoopback)).toBeNull()
    const priced = models('openai', 'gpt-4.1-mini', 'text-embedding-3-small', '    api_key: test-key\n')
    expect(await totalCost(priced)).toBeGreaterThan(0)
  })

  it('the dry run of an Ollama project prints $0, not "price unknown"', async () => {
    const root = await testdir({
      'settings.yaml': `${models('ollama', 'llama3.2', 'nomic-embed-text')}vector_store:\n  vector_size: 8\n`,
      'input/a.txt': 'Marta Quill keeps the harbour records of Tidewick. '.repeat(40),
    })
    let out = ''
    await printDryRun({ root, skipValidation: true }, { write: (text: string) => (out += text) })
    expect(out).toMatch(/^ {2}extract_graph +[\d,]+ calls .* \$0$/m)
    expect(out).toMatch(/^ {2}total +[\d,]+ calls .* \$0$/m)
    expect(out).not.toContain('price unknown')
  })
})
