/**
 * Settings files written for Microsoft GraphRAG v3 with `model_provider: anthropic`, `gemini` and
 * `ollama` pass `index --dry-run` and index a small corpus against local servers speaking each
 * provider's protocol (keys from the provider's own variable, as LiteLLM reads them).
 */
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMMUNITY_REPORTS, ENTITIES, TEXT_UNITS } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { type FakeLlm, startFakeLlm } from '../support/fake-llm/index.js'
import { type FakeProvider, startFakeProvider } from '../support/fake-llm/protocols.js'
import { testdir } from '../support/testdir.js'

const VECTOR_SIZE = 32

const DOC = `The harbour master of Tidewick, Ellen Marsh, met the ferry captain Tomas Reyes at dawn.
Reyes reported that the Northern Light ferry had lost a drive gear near Gull Rock.
Marsh asked the salvage company Brightwater Marine to tow the ferry to the Tidewick dry dock.
Brightwater Marine sent its tug Osprey under captain Ada Finch, who towed the Northern Light home.
`

const RETRY = `    retry:
      type: exponential_backoff
      max_retries: 2
      base_delay: 0.01
      jitter: false
      max_delay: 0.1`

function settings(chat: string, embedding: string): string {
  return `completion_models:
  default_completion_model:
${chat}
${RETRY}
embedding_models:
  default_embedding_model:
${embedding}
    dimensions: ${VECTOR_SIZE}
${RETRY}
vector_store:
  vector_size: ${VECTOR_SIZE}
`
}

/** The gemini and ollama files (full runs ~30 s each, dry runs ~25 s on a busy machine) run with GRAPHRAG_SLOW_TESTS=1. */
const SLOW = process.env.GRAPHRAG_SLOW_TESTS === '1'

async function indexes(root: string, env: Record<string, string>) {
  const dry = await runCliInProcess(['index', '--root', root, '--dry-run'], { env })
  expect(dry.code, dry.stderr).toBe(0)
  const run = await runCli(['index', '--root', root], { env })
  expect(run.code, run.stderr + run.stdout).toBe(0)
  const out = new ParquetTableStore(join(root, 'output'))
  expect((await out.read(TEXT_UNITS)).length).toBeGreaterThan(0)
  expect((await out.read(ENTITIES)).length).toBeGreaterThan(2)
  expect((await out.read(COMMUNITY_REPORTS)).length).toBeGreaterThan(0)
  return { dry, run }
}

describe('v3 settings files naming anthropic, gemini and ollama', () => {
  let anthropic: FakeProvider
  let gemini: FakeProvider
  let ollama: FakeLlm
  beforeAll(async () => {
    ;[anthropic, gemini, ollama] = await Promise.all([
      startFakeProvider('anthropic'),
      startFakeProvider('gemini', { embeddingDimension: VECTOR_SIZE }),
      startFakeLlm({ embeddingDimension: VECTOR_SIZE }),
    ])
  })
  afterAll(async () => {
    await Promise.all([anthropic?.close(), gemini?.close(), ollama?.close()])
  })

  it('anthropic chat (key from ANTHROPIC_API_KEY) with ollama embeddings: dry run and a full standard index', async () => {
    const root = await testdir({
      'settings.yaml': settings(
        `    model_provider: anthropic
    model: claude-sonnet-4-5
    api_base: ${anthropic.baseUrl}`,
        `    model_provider: ollama
    model: nomic-embed-text
    api_base: ${ollama.baseUrl}`,
      ),
      'input/tidewick.txt': DOC,
    })
    const key = 'sk-ant-e2e-secret-0123456789'
    const { dry, run } = await indexes(root, { ANTHROPIC_API_KEY: key })
    expect(anthropic.requests.length).toBeGreaterThan(3)
    const posts = anthropic.requests.filter((r) => r.method === 'POST')
    expect(posts.every((r) => r.url === '/v1/messages' && r.headers['x-api-key'] === key)).toBe(true)
    // The dry run's endpoint check is one plain GET, without the key.
    const gets = anthropic.requests.filter((r) => r.method === 'GET')
    expect(gets.map((r) => [r.url, r.headers['x-api-key']])).toEqual([['/v1', undefined]])
    // Community reports are structured replies: asked for in the prompt, since Anthropic has no JSON mode.
    expect(anthropic.requests.some((r) => JSON.stringify(r.body).includes('Reply with one JSON object'))).toBe(true)
    expect(ollama.requests.some((r) => r.path === '/v1/embeddings')).toBe(true)
    expect(dry.stdout).toContain(
      `completion_models.default_completion_model: anthropic claude-sonnet-4-5 via Anthropic Messages API`,
    )
    expect(dry.stdout).toContain(`    ${anthropic.baseUrl}  answers`)
    for (const text of [dry.stdout, dry.stderr, run.stdout, run.stderr]) expect(text).not.toContain(key)
    // Nor in anything the run wrote: tables, stats.json, logs, cache entries.
    for (const file of await readdir(root, { recursive: true })) {
      const path = join(root, file)
      if ((await stat(path)).isFile()) expect((await readFile(path)).includes(key), file).toBe(false)
    }
  }, 180_000)

  it.skipIf(!SLOW)(
    'gemini chat and embeddings (provider/model id, key from GEMINI_API_KEY)',
    async () => {
      const root = await testdir({
        'settings.yaml': settings(
          `    model_provider: gemini
    model: gemini/gemini-2.5-flash
    api_base: ${gemini.baseUrl}`,
          `    model_provider: gemini
    model: gemini-embedding-001
    api_base: ${gemini.baseUrl}`,
        ),
        'input/tidewick.txt': DOC,
      })
      await indexes(root, { GEMINI_API_KEY: 'AIza-e2e' })
      const urls = new Set(gemini.requests.map((r) => r.url.replace(/\?.*/, '')))
      expect(urls).toContain('/v1beta/models/gemini-2.5-flash:generateContent')
      expect([...urls].some((u) => u.startsWith('/v1beta/models/gemini-embedding-001:'))).toBe(true)
    },
    180_000,
  )

  it.skipIf(!SLOW)(
    'ollama chat and embeddings, no key at all',
    async () => {
      const root = await testdir({
        'settings.yaml': settings(
          `    model_provider: ollama
    model: llama3.2
    api_base: ${ollama.baseUrl}`,
          `    model_provider: ollama
    model: nomic-embed-text
    api_base: ${ollama.baseUrl}`,
        ),
        'input/tidewick.txt': DOC,
      })
      ollama.requests.length = 0
      await indexes(root, {})
      expect(ollama.requests.some((r) => r.body !== null && (r.body as { model?: string }).model === 'llama3.2')).toBe(
        true,
      )
      expect(
        ollama.requests.every(
          (r) => r.headers.authorization === undefined || r.headers.authorization === 'Bearer no-key',
        ),
      ).toBe(true)
    },
    180_000,
  )

  it.skipIf(!SLOW)(
    'the gemini and ollama files pass --dry-run; a gemini file without a key names GEMINI_API_KEY',
    async () => {
      const gem = settings(
        `    model_provider: gemini
    model: gemini-2.5-flash`,
        `    model_provider: gemini
    model: gemini-embedding-001`,
      )
      const olla = settings(
        `    model_provider: ollama
    model: llama3.2`,
        `    model_provider: ollama
    model: nomic-embed-text`,
      )
      const g = await testdir({ 'settings.yaml': gem, 'input/tidewick.txt': DOC })
      const o = await testdir({ 'settings.yaml': olla, 'input/tidewick.txt': DOC })
      const [withKey, ollamaDry, noKey] = await Promise.all([
        // No Gemini or Ollama server is reachable here: the endpoint check would fail the dry run (exit 1).
        runCli(['index', '--root', g, '--dry-run', '--skip-validation'], { env: { GEMINI_API_KEY: 'AIza-dry' } }),
        runCli(['index', '--root', o, '--dry-run', '--skip-validation']),
        runCli(['index', '--root', g, '--dry-run'], { env: { GEMINI_API_KEY: '' } }),
      ])
      expect(withKey.code, withKey.stderr).toBe(0)
      expect(ollamaDry.code, ollamaDry.stderr).toBe(0)
      expect(noKey.code).not.toBe(0)
      expect(noKey.stderr).toMatch(/completion_models\.default_completion_model\.api_key: .*GEMINI_API_KEY/)
    },
    60_000,
  )
})
