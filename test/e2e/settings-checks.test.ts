import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { initProject } from '../../src/config/init-project.js'
import { runIndex } from '../../src/index/run/runner.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

const V2_SETTINGS = `models:
  default_chat_model:
    type: openai_chat
    model: gpt-4o
    api_key: sk-test
  default_embedding_model:
    type: openai_embedding
    model: text-embedding-3-small
    api_key: sk-test
chunks:
  size: 1200
  overlap: 100
extract_graph:
  model_id: default_chat_model
embed_text:
  model_id: default_embedding_model
`

describe('settings that look valid and are not (index --dry-run)', () => {
  it('the <API_KEY> placeholder of init fails the dry run, naming .env', async () => {
    const root = await testdir({ 'input/a.txt': 'Some text about a harbour.' })
    // Init in process (test/e2e/index-foundation.test.ts runs the command): the dry run is what is tested.
    await initProject({ root })
    const dry = await runCli(['index', '--root', root, '--dry-run'], { env: { GRAPHRAG_API_KEY: undefined } })
    expect(dry.code).toBe(1)
    expect(dry.stdout).not.toContain('(valid')
    expect(dry.stderr).toContain('still the placeholder <API_KEY>')
    expect(dry.stderr).toContain(join(root, '.env'))
  })

  it('a GraphRAG 2.x file gets one message naming the v3 keys', async () => {
    const root = await testdir({ 'settings.yaml': V2_SETTINGS, 'input/a.txt': 'Some text.' })
    const dry = await runCliInProcess(['index', '--root', root, '--dry-run'])
    expect(dry.code).toBe(1)
    expect(dry.stdout).not.toContain('(valid')
    expect(dry.stderr).toContain('GraphRAG 2.x settings file')
    for (const move of [
      'models → completion_models and embedding_models',
      'chunks → chunking',
      'extract_graph.model_id → extract_graph.completion_model_id',
      'embed_text.model_id → embed_text.embedding_model_id',
    ]) {
      expect(dry.stderr).toContain(move)
    }
    expect(dry.stderr.match(/graphrag:/g)).toHaveLength(1)
  })

  it('an unknown key gets a did-you-mean', async () => {
    const root = await testdir({
      'settings.yaml':
        'method: fast\ncompletion_models: {}\nembedding_models:\n  default_embedding_model:\n    model_provider: local\n    model: hashing\nchunking:\n  sise: 300\n',
      'input/a.txt': 'Some text.',
    })
    const dry = await runCliInProcess(['index', '--root', root, '--dry-run'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout + dry.stderr).toContain('chunking.sise: unknown key (ignored); did you mean size?')
    expect(dry.stdout).toContain('(valid, 1 warning above)')
  })
})

describe('api_key: null for a keyless local server', () => {
  let fake: FakeLlm
  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8 })
  })
  afterAll(() => fake?.close())

  it('indexes without a dummy key', async () => {
    const settings = fakeModelSettingsYaml(fake.baseUrl).replaceAll('api_key: test-key', 'api_key: null')
    const root = await testdir({
      'settings.yaml': `${settings}vector_store:\n  vector_size: 8\n`,
      'input/a.txt': 'The Harbour Council met the Ferry Captain at North Pier.',
    })
    expect(await readFile(join(root, 'settings.yaml'), 'utf8')).toContain('api_key: null')
    // In process, with the endpoint check on as `graphrag index` runs it: the keyless model client is what is tested.
    await runIndex({ root, method: 'standard' })
    expect(fake.requests.length).toBeGreaterThan(0)
  })
})
