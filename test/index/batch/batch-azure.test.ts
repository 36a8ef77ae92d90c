/** An Azure OpenAI standard index in batch mode: every call through /openai/batches with the api-version, lines naming the deployments. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../../src/index/run/runner.js'
import { startFakeLlm, type FakeLlm } from '../../support/fake-llm/index.js'
import { batchProject, FAST_BATCH_ENV, synchronousCalls } from './project.js'

const azureModel = (base: string, model: string, deployment: string) =>
  [
    '    model_provider: azure',
    `    model: ${model}`,
    `    azure_deployment_name: ${deployment}`,
    '    api_key: azure-test-key',
    `    api_base: ${base}`,
    '    api_version: 2024-10-21',
    '    retry:\n      type: exponential_backoff\n      max_retries: 3\n      base_delay: 0.01\n      jitter: false\n      max_delay: 0.1',
  ].join('\n')

describe('index --batch on Azure OpenAI', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(async () => {
    await fake?.close()
  })

  it('sends every request as a line of an Azure batch that names its deployment', async () => {
    const base = fake.baseUrl.replace(/\/v1$/, '')
    const root = await batchProject(fake, {
      models: [
        'completion_models:',
        '  default_completion_model:',
        azureModel(base, 'gpt-4.1-mini', 'chat-batch'),
        'embedding_models:',
        '  default_embedding_model:',
        azureModel(base, 'text-embedding-3-small', 'embed-batch'),
        '',
      ].join('\n'),
    })
    await runIndex({ root, env: FAST_BATCH_ENV, skipValidation: true, batch: { all: true } })
    expect(synchronousCalls(fake)).toBe(0)
    const batches = fake.batchApi.batches
    expect(batches.length).toBeGreaterThan(0)
    expect(new Set(batches.map((b) => b.apiVersion))).toEqual(new Set(['2024-10-21']))
    expect(new Set(batches.map((b) => b.endpoint))).toEqual(new Set(['/chat/completions', '/embeddings']))
    const lines = fake.requests.filter((r) => r.batchLine !== undefined)
    expect(new Set(lines.map((r) => `${r.kind === 'embedding' ? 'embedding' : 'chat'}:${r.model}`))).toEqual(
      new Set(['chat:chat-batch', 'embedding:embed-batch']),
    )
    expect(fake.batchApi.calls.every((c) => c.headers['api-key'] === 'azure-test-key')).toBe(true)
  })
})
