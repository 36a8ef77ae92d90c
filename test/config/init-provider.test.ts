/** `graphrag init --provider`: settings for that provider that load as written, with no key for keyless ones. */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/index.js'
import { initProject } from '../../src/config/init-project.js'
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
