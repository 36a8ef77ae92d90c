// `graphrag init`: a mixed input folder works as it is (input.type auto), and --force never loses the
// API key in an existing .env (only --reset-env replaces it).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/index.js'
import { initProject } from '../../src/config/init-project.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { testdir } from '../support/testdir.js'

const KEY = 'GRAPHRAG_API_KEY=sk-my-real-key\n'

describe('graphrag init', () => {
  it('writes input.type auto, online and offline', async () => {
    for (const offline of [false, true]) {
      const root = await testdir()
      await initProject({ root, offline })
      const yaml = await readFile(join(root, 'settings.yaml'), 'utf8')
      expect(yaml).toMatch(/^input:\n(?:\s+#.*\n)*\s+type: auto$/m)
      expect(loadConfig({ root, env: { GRAPHRAG_API_KEY: 'x' } }).settings.input.type).toBe('auto')
    }
  })

  it('--force rewrites settings and prompts but keeps an existing .env; --reset-env replaces it', async () => {
    const root = await testdir()
    await initProject({ root })
    await writeFile(join(root, '.env'), KEY)
    await writeFile(join(root, 'settings.yaml'), '# edited\n')

    const forced = await runCli(['init', '--root', root, '--force'])
    expect(forced.code, forced.stderr).toBe(0)
    expect(await readFile(join(root, '.env'), 'utf8')).toBe(KEY)
    expect(await readFile(join(root, 'settings.yaml'), 'utf8')).not.toBe('# edited\n')
    expect(forced.stdout).toContain('kept existing .env (--reset-env replaces it)')
    expect(forced.stdout).toContain('wrote settings.yaml')

    const reset = await initProject({ root, force: true, resetEnv: true })
    expect(reset.written).toContain('.env')
    expect(await readFile(join(root, '.env'), 'utf8')).toBe('GRAPHRAG_API_KEY=<API_KEY>\n')
  })
})

describe('graphrag init --provider, then index --dry-run as written', () => {
  it('ollama: its models, priced at $0; azure: the dry run names each placeholder and what to fill in', async () => {
    const ollama = join(await testdir(), 'ollama')
    expect((await runCliInProcess(['init', '--root', ollama, '--provider', 'ollama'])).code).toBe(0)
    await writeFile(join(ollama, 'input', 'a.txt'), 'Anna Berg runs the ferry from Oslo to Kiel.\n')
    const dry = await runCliInProcess(['index', '--root', ollama, '--dry-run', '--skip-validation'])
    expect(dry.code, dry.stderr).toBe(0)
    expect(dry.stdout).toMatch(/default_completion_model: ollama llama3\.2 /)
    expect(dry.stdout).toMatch(/default_embedding_model: ollama nomic-embed-text /)
    expect(dry.stdout).toMatch(/^\s+total\s.*\$0$/m)

    const azure = join(await testdir(), 'azure')
    expect((await runCliInProcess(['init', '--root', azure, '--provider', 'azure'])).code).toBe(0)
    const rejected = await runCliInProcess(['index', '--root', azure, '--dry-run', '--skip-validation'], {
      env: { GRAPHRAG_API_KEY: 'sk-test' },
    })
    expect(rejected.code).not.toBe(0)
    expect(rejected.stderr).toMatch(
      /completion_models\.default_completion_model\.api_base: still the placeholder "https:\/\/<your-resource-name>\.openai\.azure\.com" that graphrag init wrote; put the URL/,
    )
    expect(rejected.stderr).toMatch(
      /embedding_models\.default_embedding_model\.azure_deployment_name: still the placeholder/,
    )
  }, 60_000)
})
