/**
 * `graphrag normalize-entities` (seed design 000's normalize_entities utility) on a fast index built
 * with entity_resolution.normalize_names off: it lists the spellings normalisation would merge, and
 * --apply re-indexes with the setting on so they become one entity.
 */
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { duckQuery } from '../support/duckdb.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { testdir } from '../support/testdir.js'

const TEXT = [
  'The Old Mill stood by the river. Farmers brought grain to the Old Mill every autumn.',
  'Two old mills once stood there; now the old mill grinds for the whole valley and the Old Mills Road.',
  'Children played near the Old Mill while the farmers waited with their grain.',
].join('\n\n')

// The first normalize-entities is spawned; the set-up index and the other runs ask the same commands in process
// (runCliInProcess: same main(), output and exit codes, no Node start-up per run).
describe('graphrag normalize-entities (CLI, fast method)', () => {
  let fake: FakeLlm
  let root: string
  const settings = (normalize: boolean) =>
    [
      fakeModelSettingsYaml(fake.baseUrl),
      'vector_store:\n  vector_size: 8',
      'chunking:\n  size: 40\n  overlap: 0',
      'prune_graph:\n  min_node_freq: 1\n  min_edge_weight_pct: 0\n  remove_ego_nodes: false',
      `entity_resolution:\n  normalize_names: ${normalize}`,
      '',
    ].join('\n')
  const titles = async () =>
    (await duckQuery(`SELECT title FROM read_parquet('${join(root, 'output', 'entities.parquet')}')`)).map((r) =>
      String(r.title),
    )

  beforeAll(async () => {
    fake = await startFakeLlm({ embeddingDimension: 8 })
    root = await testdir({ 'settings.yaml': settings(false), 'input/mill.txt': TEXT })
    const index = await runCliInProcess(['index', '--root', root, '--method', 'fast'])
    expect(index.code, index.stderr).toBe(0)
  }, 120_000)

  afterAll(async () => {
    await fake?.close()
  })

  it('lists the spellings that would merge, and changes nothing', async () => {
    const before = await titles()
    expect(before).toEqual(expect.arrayContaining(['OLD MILL', 'OLD MILLS']))
    const run = await runCli(['normalize-entities', '--root', root])
    expect(run.code, run.stderr).toBe(0)
    expect(run.stdout).toMatch(/^old mill: OLD MILLS? \| OLD MILLS?$/m)
    expect(run.stdout).toMatch(/^\d+ names would merge \d+ entities$/m)
    expect(await titles()).toEqual(before)
  })

  it('--apply asks for the setting, then re-indexes so the spellings are one entity', async () => {
    const refused = await runCliInProcess(['normalize-entities', '--root', root, '--apply'])
    expect(refused.code).not.toBe(0)
    expect(refused.stderr).toContain('entity_resolution.normalize_names: true')
    await writeFile(join(root, 'settings.yaml'), settings(true))
    const before = fake.requests.filter((r) => r.kind !== 'embedding').length
    const run = await runCliInProcess(['normalize-entities', '--root', root, '--apply', '--method', 'fast'])
    expect(run.code, run.stderr).toBe(0)
    const after = await titles()
    expect(after.filter((t) => t === 'OLD MILL' || t === 'OLD MILLS')).toHaveLength(1)
    const again = await runCliInProcess(['normalize-entities', '--root', root])
    expect(again.stdout).not.toMatch(/^old mill:/m)
    // The fast method again: no chat model is asked.
    expect(fake.requests.filter((r) => r.kind !== 'embedding' && r.kind !== 'preflight').length).toBe(before)
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8')) as {
      workflows: Record<string, unknown>
    }
    expect(Object.keys(stats.workflows)).toContain('extract_graph_nlp')
  })
})
