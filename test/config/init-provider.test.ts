/** `graphrag init --provider`: settings for that provider that load as written, with no key for keyless ones. */
import { existsSync } from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/index.js'
import { initProject } from '../../src/config/init-project.js'
import { PROVIDER_NAMES, providerInfo } from '../../src/llm/providers.js'
import { testdir } from '../support/testdir.js'

describe('init --provider', () => {
  it('ollama: both models on ollama, no api_key and no .env; the settings load', async () => {
    const root = await testdir({})
    const result = await initProject({ root, provider: 'ollama', model: 'llama3.2', embedding: 'nomic-embed-text' })
    expect(result.keyless).toBe(true)
    expect(existsSync(join(root, '.env'))).toBe(false)
    const text = await readFile(join(root, 'settings.yaml'), 'utf8')
    expect(text).not.toMatch(/^\s*api_key: \$\{GRAPHRAG_API_KEY\}/m)
    expect(text).toMatch(/^\s*model_provider: ollama$/m)
    const { settings } = loadConfig({ root, env: {} })
    expect(settings.completion_models.default_completion_model).toMatchObject({
      model_provider: 'ollama',
      model: 'llama3.2',
      api_key: null,
    })
    expect(settings.embedding_models.default_embedding_model?.model).toBe('nomic-embed-text')
  })

  it('anthropic: the key placeholder in .env; an unknown provider is one clear error', async () => {
    const root = await testdir({})
    await initProject({ root, provider: 'anthropic', model: 'claude-sonnet-4-5', embedding: 'x' })
    expect(await readFile(join(root, '.env'), 'utf8')).toBe('GRAPHRAG_API_KEY=<API_KEY>\n')
    await expect(initProject({ root: await testdir({}), provider: 'antropic' })).rejects.toThrow(
      /--provider: unknown provider "antropic" \(one of openai, azure, anthropic/,
    )
  })
})

/** Settings of `graphrag init --provider NAME` with no -m/-e, loaded with a key in the environment. */
async function initFor(provider: string, fill: (text: string) => string = (t) => t) {
  const root = await testdir({})
  await initProject({ root, provider })
  const path = join(root, 'settings.yaml')
  const text = await readFile(path, 'utf8')
  await writeFile(path, fill(text))
  return { root, text, load: () => loadConfig({ root, env: { GRAPHRAG_API_KEY: 'sk-test' } }).settings }
}

describe('init --provider writes settings that work as written', () => {
  it('ollama: models ollama serves, nomic-embed-text at 768 dimensions, 4 parallel requests', async () => {
    const settings = (await initFor('ollama')).load()
    expect(settings.completion_models.default_completion_model).toMatchObject({
      model: 'llama3.2',
      concurrent_requests: 4,
    })
    expect(settings.embedding_models.default_embedding_model).toMatchObject({
      model_provider: 'ollama',
      model: 'nomic-embed-text',
      concurrent_requests: 4,
    })
    expect(settings.vector_store.vector_size).toBe(768)
  })

  it('anthropic: a Claude model, and the local hashing embedder with a comment saying why', async () => {
    const { text, load } = await initFor('anthropic')
    const settings = load()
    expect(settings.completion_models.default_completion_model?.model).toBe('claude-sonnet-4-5')
    expect(settings.embedding_models.default_embedding_model).toMatchObject({
      model_provider: 'local',
      model: 'hashing-384',
    })
    expect(settings.vector_store.vector_size).toBe(384)
    expect(text).toMatch(/^# anthropic has no embedding models: embeddings use the local hashing embedder/m)
  })

  it('azure: placeholders the settings rules name with what to fill in; filled, the settings load', async () => {
    const { root, text } = await initFor('azure')
    expect(text).toMatch(/^# Azure OpenAI: fill in the values written as <…> below/m)
    const error = (() => {
      try {
        loadConfig({ root, env: { GRAPHRAG_API_KEY: 'sk-test' } })
      } catch (e) {
        return String(e)
      }
      return 'loaded'
    })()
    expect(error).toMatch(
      /completion_models\.default_completion_model\.api_base: still the placeholder "https:\/\/<your-resource-name>\.openai\.azure\.com" that graphrag init wrote; put the URL of your server there \(Azure: your resource endpoint/,
    )
    expect(error).toMatch(
      /default_completion_model\.azure_deployment_name: still the placeholder "<your gpt-4\.1 deployment name>"/,
    )
    expect(error).toMatch(/default_embedding_model\.azure_deployment_name: still the placeholder/)
    expect(error).not.toMatch(/api_version/)
    const filled = await initFor('azure', (t) =>
      t
        .replaceAll('<your-resource-name>', 'contoso')
        .replace('<your gpt-4.1 deployment name>', 'chat')
        .replace('<your text-embedding-3-large deployment name>', 'embed'),
    )
    const settings = filled.load()
    expect(settings.completion_models.default_completion_model).toMatchObject({
      api_base: 'https://contoso.openai.azure.com',
      api_version: '2024-10-21',
      azure_deployment_name: 'chat',
    })
    expect(settings.vector_store.vector_size).toBe(3072)
  })

  it.each(PROVIDER_NAMES.filter((p) => p !== 'local'))(
    '%s: an embedding model of a provider that has embeddings, at its vector size',
    async (provider) => {
      const settings = (await initFor(provider, (t) => t.replace(/<your[^>]*>/g, 'filled-in'))).load()
      const embedding = settings.embedding_models.default_embedding_model!
      expect(providerInfo(embedding.model_provider).embeddings).toBe(true)
      const sizes: Record<string, number> = {
        'hashing-384': 384,
        'nomic-embed-text': 768,
        'text-embedding-3-large': 3072,
      }
      if (sizes[embedding.model] !== undefined) expect(settings.vector_store.vector_size).toBe(sizes[embedding.model])
    },
  )
})
