/**
 * The standard method on the demo with the fake model (which names entities by the capitalised
 * words of each chunk): a default index keeps no two entities with equal normalised names and no
 * stop-word entity, and says how many it merged and dropped.
 */
import { cp, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runIndex } from '../../src/index/run/runner.js'
import { ENTITIES, ENTITY_ALIASES } from '../../src/model/index.js'
import { ParquetTableStore } from '../../src/storage/table-store.js'
import { entityKey } from '../../src/text/entity-key.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm } from '../support/fake-llm/index.js'
import { PROJECT_ROOT } from '../support/shared.js'
import { testdir } from '../support/testdir.js'

describe('entity resolution, standard method, fake model, demo', () => {
  let fake: FakeLlm
  let root: string
  beforeAll(async () => {
    fake = await startFakeLlm()
    // Only the graph steps: the figures checked here are final after finalize_graph.
    const workflows = [
      'load_input_documents',
      'create_base_text_units',
      'create_final_documents',
      'extract_graph',
      'finalize_graph',
    ]
    root = await testdir({
      'settings.yaml': `${fakeModelSettingsYaml(fake.baseUrl)}extract_graph:\n  max_gleanings: 0\nworkflows: [${workflows.join(', ')}]\n`,
    })
    await cp(join(PROJECT_ROOT, 'fixtures', 'demo', 'input'), join(root, 'input'), { recursive: true })
    // The fake names entities by capitalised words: "Ferries" here, "Ferry" all through the demo.
    await writeFile(join(root, 'input', '06-timetable.txt'), 'Ferries to Kettle Island run twice a day in summer.\n')
    await runIndex({ root, env: {}, skipValidation: true, method: 'standard' })
  }, 300_000)
  afterAll(async () => fake?.close())

  it('keeps no two entities with equal normalised names and no stop-word names (THEN); counts in stats.json', async () => {
    const store = new ParquetTableStore(join(root, 'output'))
    const titles = (await store.read(ENTITIES)).map((e) => e.title)
    const keys = titles.map((t) => entityKey(t, true))
    expect(new Set(keys).size).toBe(keys.length)
    for (const noise of ['THEN', 'THEY', 'THERE', 'THIS', 'THAT']) expect(titles).not.toContain(noise)
    const stats = JSON.parse(await readFile(join(root, 'output', 'stats.json'), 'utf8'))
    const counters = stats.workflows.extract_graph.counters
    expect(counters.noise_stop_words).toBeGreaterThan(0)
    expect(counters.noise_generic).toBe(0)
    expect(titles).toContain('FERRY')
    expect(titles).not.toContain('FERRIES')
    const aliases = await store.read(ENTITY_ALIASES)
    expect(aliases).toContainEqual({ title: 'FERRY', alias: 'FERRIES', normalized: 'ferry' })
    expect(counters.merged_spellings).toBe(aliases.length)
  })
})
