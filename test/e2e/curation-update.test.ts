/**
 * Entity resolution and curation on a copy of fixtures/demo (fast method, offline): the default index
 * has no two entities with equal normalised names and none of the noise phrases; curation rules made
 * with `graphrag curate`, then an update after adding a document, give the tables of a full index of
 * the same inputs with the same curation.yaml.
 */
import { cp, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { ENTITIES, ENTITY_ALIASES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { entityKey } from '../../src/text/entity-key.js'
import { runIndex } from '../../src/index/run/runner.js'
import { describeChanges, runUpdate } from '../../src/index/run/update.js'
import { runCli } from '../support/cli.js'
import { runCliInProcess } from '../support/cli-in-process.js'
import { exactTables } from '../support/communities.js'
import { indexedDemoCopy } from '../support/demo-index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

const OFFLINE = { OPENAI_API_KEY: undefined, GRAPHRAG_API_KEY: undefined }

async function demoCopy(): Promise<string> {
  const root = join(await testdir({}), 'demo')
  await cp(join(PROJECT_ROOT, 'fixtures', 'demo'), root, { recursive: true })
  for (const generated of ['output', 'cache', 'logs', '.output.run', 'update_output'])
    await rm(join(root, generated), { recursive: true, force: true })
  return root
}

const titles = async (root: string) =>
  (await new ParquetTableStore(join(root, 'output')).read(ENTITIES)).map((e) => e.title)

describe('entity resolution and curation, fast method, offline demo', () => {
  let root: string
  beforeAll(async () => {
    root = await indexedDemoCopy()
  }, 300_000)

  it('a default index keeps no two entities with equal normalised names and none of the noise phrases; counts in stats.json', async () => {
    const names = await titles(root)
    const keys = names.map((t) => entityKey(t, true))
    expect(new Set(keys).size).toBe(keys.length)
    for (const noise of ['FEW MINUTES', 'END', 'SAME FERRY']) expect(names).not.toContain(noise)
    expect(names).toContain('HOLM END')
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    const counters = stats.workflows.extract_graph_nlp.counters
    expect(counters.noise_generic).toBeGreaterThan(0)
    expect(counters.merged_spellings).toBeGreaterThan(0)
    const diagnostics = await runCli(['diagnostics', '--json', '--root', root], { env: OFFLINE })
    const counts = JSON.parse(diagnostics.stdout).counts.entity_resolution
    expect(counts).toMatchObject({ noise_generic: counters.noise_generic, merged_spellings: counters.merged_spellings })
  })

  it('merge, rename and delete with `graphrag curate`, then an update with a new document, equal a full index with the same rules', async () => {
    const edits = [
      ['merge', 'the tobias harrows', '--into', 'Nell Harrow'],
      ['rename', 'kittiwake', 'KITTIWAKE FERRY'],
      ['delete', 'Skelling'],
    ]
    for (const edit of edits) {
      const run = await runCliInProcess(['curate', ...edit, '--root', root], { env: OFFLINE })
      expect(run.code, run.stderr).toBe(0)
      expect(run.stdout).toContain('graphrag update')
    }
    const list = await runCli(['curate', 'list', '--root', root], { env: OFFLINE })
    expect(list.stdout).toContain('1. merge TOBIAS HARROW into NELL HARROW')
    expect(list.stdout).toContain('3. delete SKELLING')
    expect(await readFile(join(root, 'curation.audit.jsonl'), 'utf8')).toMatch(/"who":"cli:[^"]+".*"action":"merge"/)

    await writeFile(
      join(root, 'input', '06-the-new-pier.txt'),
      'Nell Harrow opened the New Pier. Tobias Harrow moored the Kittiwake there beside the Skelling boats.\n',
    )
    // In process: the update's tables are asked here; the CLI's update runs are checked in the next test.
    const update = await runUpdate({ root, env: {}, skipValidation: true })
    expect(describeChanges(update.changes)).toMatch(/^1 new, 0 edited, 0 deleted/)
    const names = await titles(root)
    expect(names).toEqual(expect.arrayContaining(['NELL HARROW', 'KITTIWAKE FERRY']))
    for (const gone of ['TOBIAS HARROW', 'KITTIWAKE', 'SKELLING']) expect(names).not.toContain(gone)
    const aliases = await new ParquetTableStore(join(root, 'output')).read(ENTITY_ALIASES)
    expect(aliases).toEqual(
      expect.arrayContaining([
        { title: 'NELL HARROW', alias: 'TOBIAS HARROW', normalized: 'tobias harrow' },
        { title: 'KITTIWAKE FERRY', alias: 'KITTIWAKE', normalized: 'kittiwake' },
      ]),
    )

    const full = await demoCopy()
    await rm(join(full, 'input'), { recursive: true })
    await cp(join(root, 'input'), join(full, 'input'), { recursive: true })
    await cp(join(root, 'curation.yaml'), join(full, 'curation.yaml'))
    // The reference full index in process (no model, no key), as the update above.
    await runIndex({ root: full, env: {}, skipValidation: true })
    expect(await exactTables(join(root, 'output'))).toEqual(await exactTables(join(full, 'output')))
  }, 300_000)

  it('curate --apply runs an update with only new rules; a rule naming an absent entity is a warning; a malformed file is one error', async () => {
    const file = join(root, 'curation.yaml')
    // Written by hand: `graphrag curate` refuses a name the index does not have.
    await writeFile(file, `${await readFile(file, 'utf8')}  - { action: delete, entity: NOBODY AT ALL }\n`)
    const update = await runCli(['curate', 'type', 'nell harrow', 'PERSON', '--root', root, '--apply'], {
      env: OFFLINE,
    })
    expect(update.code, update.stderr).toBe(0)
    expect(update.stdout).toContain('set type of NELL HARROW to PERSON')
    expect(update.stderr).toContain('Updated: 0 new, 0 edited, 0 deleted')
    expect(`${update.stdout}${update.stderr}`).toContain('rules[3] (delete): "NOBODY AT ALL" not in the graph')
    const entities = await new ParquetTableStore(join(root, 'output')).read(ENTITIES)
    expect(entities.find((e) => e.title === 'NELL HARROW')?.type).toBe('PERSON')

    await writeFile(file, 'rules:\n  - { action: merge, entity: A1 }\n')
    const broken = await runCli(['update', '--root', root], { env: OFFLINE })
    expect(broken.code).toBe(1)
    expect(broken.stderr).toContain(`${file}: rules[0]: merge needs a non-empty into`)
  }, 300_000)
})
