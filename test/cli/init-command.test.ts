// `graphrag init`: a mixed input folder works as it is (input.type auto), and --force never loses the
// API key in an existing .env (only --reset-env replaces it).
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadConfig } from '../../src/config/index.js'
import { initProject } from '../../src/config/init-project.js'
import { runCli } from '../support/cli.js'
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
