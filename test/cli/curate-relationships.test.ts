/** `graphrag curate relate` / `unrelate`: relationship rules written to curation.yaml, listed, and bad input refused. */
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { testdir } from '../support/testdir.js'

describe('graphrag curate relate / unrelate', () => {
  it('writes add_relationship and delete_relationship rules, lists them, and refuses a bad weight writing nothing', async () => {
    // No index yet: names are taken as written.
    const root = await testdir({ 'settings.yaml': 'input:\n  type: text\n' })
    const bad = await runCli([
      'curate',
      'relate',
      'Nell',
      'Greyling',
      '--description',
      'sails',
      '--weight',
      '-1',
      '--root',
      root,
    ])
    expect(bad.code).not.toBe(0)
    expect(bad.stderr).toContain('expected a number above 0, got "-1"')
    await expect(readFile(join(root, 'curation.yaml'), 'utf8')).rejects.toThrow(/ENOENT/)

    const relate = await runCliInProcess([
      'curate',
      'relate',
      'NELL HARROW',
      'GREYLING',
      '--description',
      'Nell sails for the Greyling',
      '--weight',
      '2',
      '--root',
      root,
    ])
    expect(relate.code, relate.stderr).toBe(0)
    expect(relate.stdout).toContain('add relationship NELL HARROW — GREYLING: Nell sails for the Greyling')
    const missing = await runCliInProcess(['curate', 'relate', 'A', 'B', '--root', root])
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('--description')
    const unrelate = await runCliInProcess(['curate', 'unrelate', 'TOBIAS HARROW', 'KITTIWAKE', '--root', root])
    expect(unrelate.code, unrelate.stderr).toBe(0)

    const yaml = await readFile(join(root, 'curation.yaml'), 'utf8')
    expect(yaml).toMatch(/action: add_relationship[\s\S]*weight: 2/)
    expect(yaml).toMatch(/action: delete_relationship[\s\S]*source: TOBIAS HARROW/)
    const list = await runCliInProcess(['curate', 'list', '--root', root])
    expect(list.stdout).toContain('1. add relationship NELL HARROW — GREYLING')
    expect(list.stdout).toContain('2. delete relationship TOBIAS HARROW — KITTIWAKE')
  })
})
