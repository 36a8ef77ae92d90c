import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

async function stats(root: string): Promise<{ workflows: Record<string, { skipped: boolean }> }> {
  return JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
}

describe('a copied project on another port', () => {
  let first: FakeLlm
  let second: FakeLlm
  let original: string

  beforeAll(async () => {
    first = await startFakeLlm({ embeddingDimension: 16 })
    second = await startFakeLlm({ embeddingDimension: 16 })
    const text = (await readFile(join(PROJECT_ROOT, 'fixtures', 'demo', 'input', '02-the-storm.txt'), 'utf8')).slice(
      0,
      2000,
    )
    const settings = [
      fakeModelSettingsYaml(first.baseUrl),
      'chunking:\n  size: 200\n  overlap: 0',
      'vector_store:\n  vector_size: 16',
      '',
    ].join('\n')
    original = await testdir({ 'settings.yaml': settings, 'input/storm.txt': text })
    const run = await runCli(['index', '--root', original, '--method', 'standard', '--skip-validation'])
    expect(run.code, run.stderr).toBe(0)
  }, 120_000)
  afterAll(async () => {
    await first?.close()
    await second?.close()
  })

  it('resumes every workflow after a move, and answers every call from the cache when the server moved to another port', async () => {
    const copy = join(await testdir({}), 'moved')
    await cp(original, copy, { recursive: true })
    const settings = await readFile(join(copy, 'settings.yaml'), 'utf8')
    await writeFile(join(copy, 'settings.yaml'), settings.replaceAll(first.baseUrl, second.baseUrl))
    const resumed = await runCliInProcess(['index', '--root', copy, '--method', 'standard', '--skip-validation'])
    expect(resumed.code, resumed.stderr).toBe(0)
    const workflows = Object.entries((await stats(copy)).workflows)
    expect(workflows.length).toBeGreaterThan(5)
    for (const [name, w] of workflows) expect(w.skipped, name).toBe(true)
    const rerun = await runCliInProcess([
      'index',
      '--root',
      copy,
      '--method',
      'standard',
      '--skip-validation',
      '--no-resume',
    ])
    expect(rerun.code, rerun.stderr).toBe(0)
    expect(second.requests).toHaveLength(0)
    for (const table of ['entities', 'relationships', 'community_reports']) {
      expect(await readFile(join(copy, 'output', `${table}.parquet`)), table).toEqual(
        await readFile(join(original, 'output', `${table}.parquet`)),
      )
    }
  })
})
