/**
 * Issue 46 item 6: `graphrag update` loads its settings once and passes them down (the plan, the
 * run and the full-text refresh read them three times before). Proven by breaking settings.yaml
 * after the command loaded it: no step may read the file again.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { updateCommand } from '../../src/cli/update-run.js'
import { loadConfig } from '../../src/config/load.js'
import { runIndex } from '../../src/index/run/runner.js'
import { offlineFastSettingsYaml } from '../support/fast-settings.js'
import { testdir } from '../support/testdir.js'

afterEach(() => {
  vi.restoreAllMocks()
})

describe('graphrag update reads its settings once', () => {
  it('plans, runs and refreshes the full-text table from the settings it was given', async () => {
    const root = await testdir({
      'settings.yaml': offlineFastSettingsYaml(),
      'input/a.txt': 'Captain Elsa Marr sailed the Windward from Harrowmere to the northern isles in the spring.\n',
      'input/b.txt': 'The harbour master of Harrowmere, Tobias Venn, kept a log of every ship that came in.\n',
    })
    await runIndex({ root, skipValidation: true })
    await writeFile(join(root, 'input', 'c.txt'), 'Ada Quill kept the lighthouse on Tern Rocks for forty years.\n')
    const config = loadConfig({ root })
    await writeFile(join(root, 'settings.yaml'), 'method: [not, a, method\n')
    expect(() => loadConfig({ root })).toThrow()

    let stderr = ''
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
      stderr += String(chunk)
      return true
    })
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true)
    await updateCommand({ root, skipValidation: true, config }, false)
    vi.restoreAllMocks()

    expect(stderr).toMatch(/Updated: 1 new, 0 edited, 0 deleted, 2 unchanged document\(s\)/)
    expect(stderr).not.toContain('full-text table was not refreshed')
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    expect(stats.update.added).toEqual(['c.txt'])
  }, 60_000)
})
