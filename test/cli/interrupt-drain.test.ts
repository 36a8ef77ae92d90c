/**
 * Ctrl-C during `graphrag index` or `graphrag update` (runInterruptibly, both commands' path): the
 * calls already on the wire finish before the run is recorded as interrupted, so their answers are
 * kept (issue 46 item 3: the drain not awaited went unnoticed outside the slow drill).
 */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runInterruptibly } from '../../src/cli/interruptible-index.js'
import type { ModelRegistry } from '../../src/index/run/models.js'
import { SILENT_REPORTER } from '../../src/index/run/reporter.js'
import { createChatModel, modelOptionsFromSettings } from '../../src/llm/index.js'
import type { ModelSettingsShape } from '../../src/llm/settings.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

describe('Ctrl-C during a run', () => {
  let fake: FakeLlm
  /** Set when the fake server has the request (its answer then takes 1.5 s). */
  let received = false
  beforeAll(async () => {
    fake = await startFakeLlm({
      latency: {
        extraMs: () => {
          received = true
          return 1500
        },
      },
    })
  })
  afterAll(() => fake?.close())

  it('waits for the call in flight to finish before recording the interruption', async () => {
    const root = await testdir({ 'settings.yaml': 'input:\n  type: text\n' })
    const settings = {
      model_provider: 'openai',
      model: 'gpt-4.1-mini',
      api_key: 'sk-test',
      api_base: fake.baseUrl,
      retry: { type: 'exponential_backoff', max_retries: 0, base_delay: 2, jitter: false, max_delay: null },
      call_args: {},
      api_version: null,
      azure_deployment_name: null,
      rate_limit: null,
      concurrent_requests: null,
      request_timeout: 30,
      encoding_model: null,
      dimensions: null,
      pricing: null,
    } as unknown as ModelSettingsShape
    const chat = createChatModel(
      modelOptionsFromSettings('completion_models', 'default_completion_model', settings, {
        concurrentRequests: 1,
        keyOrigin: undefined,
      }),
    )
    const registry = {
      forWorkflow: () => ({ chat: () => chat, embedding: () => undefined, hasChat: () => true }),
    } as unknown as ModelRegistry
    let answered = false
    const exitCode = process.exitCode
    try {
      const result = await runInterruptibly({ root, env: {} }, SILENT_REPORTER, async (options) => {
        const gated = options.interrupt!.gate(registry).forWorkflow('extract_graph').chat('default_completion_model', {
          keyPath: 'extract_graph.completion_model_id',
          cachePartition: 'extract_graph',
        })
        const call = gated.complete({ messages: [{ role: 'user', content: 'one question' }] }).then(
          () => {
            answered = true
          },
          // Cancelled (the grace period ended without the answer): `answered` stays false.
          () => undefined,
        )
        while (!received) await new Promise((resolve) => setTimeout(resolve, 10))
        process.emit('SIGINT')
        void call
        throw new Error('the workflow stopped')
      })
      expect(result).toBeUndefined()
      expect(process.exitCode).toBe(130)
      expect(answered).toBe(true)
      const stats = JSON.parse(await readFile(join(root, '.output.run', 'work', 'stats.json'), 'utf8'))
      expect(stats.status).toBe('interrupted')
    } finally {
      process.exitCode = exitCode
    }
  })
})
