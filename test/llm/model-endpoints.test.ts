/**
 * `index --dry-run` and `graphrag diagnostics` name each model's provider and endpoints and say which
 * answer; a pool's endpoints are checked one by one; keys and URL credentials never show.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { modelEndpointReport } from '../../src/cli/model-endpoints.js'
import { loadConfig } from '../../src/config/index.js'
import { redactUrls } from '../../src/llm/safe-url.js'
import { ModelProbe } from '../../src/server/model-probe.js'
import { startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

describe('model endpoints in the dry run and diagnostics', () => {
  let live: FakeLlm
  let deadUrl: string
  beforeAll(async () => {
    live = await startFakeLlm({ embeddingDimension: 8 })
    const dead = await startFakeLlm()
    deadUrl = dead.baseUrl
    await dead.close()
  })
  afterAll(() => live.close())

  async function settings() {
    const root = await testdir({})
    await writeFile(
      join(root, 'settings.yaml'),
      `completion_models:
  default_completion_model:
    model_provider: hosted_vllm
    model: qwen3-32b
    api_base:
      - api_base: ${live.baseUrl}
        api_key: endpoint-key-secret-1
        concurrent_requests: 4
      - api_base: ${deadUrl}
        api_key: endpoint-key-secret-2
        weight: 2
    retry:
      max_retries: 0
embedding_models:
  default_embedding_model:
    model_provider: ollama
    model: nomic-embed-text
    api_base: ${live.baseUrl}
    dimensions: 8
vector_store:
  vector_size: 8
`,
    )
    return loadConfig({ root }).settings
  }

  it('dry run: provider, each endpoint without credentials, and whether it answers', async () => {
    const { text, silent } = await modelEndpointReport(await settings(), {
      chat: ['default_completion_model'],
      embedding: ['default_embedding_model'],
    })
    // One endpoint of the pool answers: the run can go on.
    expect(silent).toEqual([])
    expect(text).toContain('completion_models.default_completion_model: hosted_vllm qwen3-32b via OpenAI-compatible')
    expect(text).toContain(`    ${live.baseUrl}  answers`)
    expect(text).toMatch(new RegExp(`    ${deadUrl.replace(/[.]/g, '\\.')}  does NOT answer \\(ECONNREFUSED\\)`))
    expect(text).toContain('embedding_models.default_embedding_model: ollama nomic-embed-text')
    expect(text).not.toMatch(/secret/)
  })

  it('masks credentials in URLs and rejects them in api_base with one clear error', async () => {
    expect(redactUrls('fetch failed: http://user:url-secret@host/v1/chat?key=abc&x=1')).toBe(
      'fetch failed: http://***@host/v1/chat?key=***&x=1',
    )
    const root = await testdir({
      'settings.yaml': `completion_models:
  default_completion_model:
    model_provider: ollama
    model: llama3.2
    api_base: http://user:url-secret@127.0.0.1:11434/v1
`,
    })
    const error = await Promise.resolve()
      .then(() => loadConfig({ root }))
      .then(
        () => undefined,
        (e: unknown) => e as Error,
      )
    expect(error?.message).toContain('completion_models.default_completion_model.api_base: remove the user:password')
    expect(error?.message).not.toContain('url-secret')
  })

  it('diagnostics: one call per endpoint of a pool, reachable while any answers', async () => {
    const reach = await new ModelProbe().check(await settings())
    const chat = reach.find((r) => r.group === 'completion_models')!
    expect(chat.provider).toBe('hosted_vllm')
    expect(chat.reachable).toBe(true)
    expect(chat.endpoints.map((e) => e.reachable)).toEqual([true, false])
    expect(chat.endpoints[0]!.endpoint).toBe(live.baseUrl)
    expect(chat.endpoints[1]!.error).toMatch(/cannot reach/)
    expect(reach.find((r) => r.group === 'embedding_models')!.reachable).toBe(true)
    expect(JSON.stringify(reach)).not.toMatch(/secret/)
    // The live endpoint got its own key.
    expect(live.requests.some((r) => r.headers.authorization === 'Bearer endpoint-key-secret-1')).toBe(true)
  })
})
