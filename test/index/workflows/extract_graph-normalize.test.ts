import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { extractGraph } from '../../../src/index/workflows/extract_graph.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import {
  BASE_TEXT_UNITS,
  ENTITY_ALIASES,
  EXTRACTED_ENTITIES,
  EXTRACTED_RELATIONSHIPS,
} from '../../../src/model/index.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { createTestContext } from '../../support/workflow-context.js'

/** Unit 1 names the spirit one way, unit 2 another; both relate it to Scrooge. */
const REPLIES: Record<string, string> = {
  'The spirit came.':
    '("entity"<|>The Ghost of Christmas Past<|>PERSON<|>A spirit)##("entity"<|>SCROOGE<|>PERSON<|>A miser)##("relationship"<|>The Ghost of Christmas Past<|>SCROOGE<|>Visits him<|>3)<|COMPLETE|>',
  'It came again.':
    '("entity"<|>GHOST OF CHRISTMAS PAST<|>PERSON<|>The first spirit)##("entity"<|>SCROOGE<|>PERSON<|>Afraid)##("relationship"<|>GHOST OF CHRISTMAS PAST<|>SCROOGE<|>Shows him his past<|>4)<|COMPLETE|>',
}
const responder: Responder = (req) => {
  if (req.kind !== 'extract_graph') return undefined
  const text = req.messages.map((m) => m.content).join('\n')
  return Object.entries(REPLIES).find(([unit]) => text.includes(unit))?.[1]
}

describe('extract_graph name merging (entity_resolution.normalize_names, formerly extract_graph.normalize_titles)', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ responders: [responder] })
  })
  afterAll(async () => llm.close())

  // `settings`: YAML appended to the model settings (none: the defaults).
  const run = async (settings: string) => {
    const units = Object.keys(REPLIES).map((text, i) => ({ id: `u${i + 1}`, document_id: 'd', text, n_tokens: 4 }))
    const t = await createTestContext({
      settingsYaml: `${fakeModelSettingsYaml(llm.baseUrl)}extract_graph:\n  max_gleanings: 0\n${settings}`,
      files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, units) },
      models: (settings, cache) =>
        createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow(extractGraph.name),
    })
    await extractGraph.run(t.ctx)
    return t
  }

  // The parser upper-cases titles, as the reference does: the two spellings differ only by the article.
  it('by default merges the two spellings into one entity and writes the other spelling to entity_aliases', async () => {
    const t = await run('')
    const entities = await t.tables.read(EXTRACTED_ENTITIES)
    expect(entities.map((e) => [e.title, e.frequency]).sort()).toEqual(
      [
        ['GHOST OF CHRISTMAS PAST', 2],
        ['SCROOGE', 2],
      ].sort(),
    )
    const relationships = await t.tables.read(EXTRACTED_RELATIONSHIPS)
    expect(relationships.map((r) => [r.source, r.target, r.weight])).toEqual([
      ['GHOST OF CHRISTMAS PAST', 'SCROOGE', 7],
    ])
    expect(await t.tables.read(ENTITY_ALIASES)).toEqual([
      { title: 'GHOST OF CHRISTMAS PAST', alias: 'THE GHOST OF CHRISTMAS PAST', normalized: 'ghost of christmas past' },
    ])
  })

  it('the older extract_graph.normalize_titles: true still merges when entity_resolution.normalize_names is off', async () => {
    const t = await run('  normalize_titles: true\nentity_resolution:\n  normalize_names: false\n')
    expect((await t.tables.read(EXTRACTED_ENTITIES)).map((e) => e.title).sort()).toEqual([
      'GHOST OF CHRISTMAS PAST',
      'SCROOGE',
    ])
  })

  it('off, the spellings stay separate entities as in Microsoft GraphRAG and no aliases table is written', async () => {
    const t = await run('entity_resolution:\n  normalize_names: false\n')
    expect((await t.tables.read(EXTRACTED_ENTITIES)).length).toBe(3)
    expect(await t.tables.has(ENTITY_ALIASES.name)).toBe(false)
  })
})
