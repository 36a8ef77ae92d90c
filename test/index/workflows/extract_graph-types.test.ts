// extract_graph.discovered_types (seed design 001): discovered_types.json in the output folder, the
// extraction's entity types consolidated per document (stratified) with the design's 15 / 10 %.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { extractGraph } from '../../../src/index/workflows/extract_graph.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { BASE_TEXT_UNITS } from '../../../src/model/index.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { createTestContext } from '../../support/workflow-context.js'

const UNITS = [
  { id: 'sea', document_id: 'voyage', text: 'The crew of the ships sailed under a ghostly omen.', n_tokens: 10 },
  { id: 'town', document_id: 'atlas', text: 'The towns of the coast and their mayor.', n_tokens: 9 },
]

const entity = (title: string, type: string) => `("entity"<|>${title}<|>${type}<|>seen)`
/** voyage: 16 PERSON, 2 SHIP (10 %), 1 GHOST and 1 OMEN (5 % each); atlas: 3 PLACE, 1 PERSON. */
const REPLIES: Record<string, string[]> = {
  sea: [
    ...Array.from({ length: 16 }, (_, i) => entity(`SAILOR ${i}`, 'PERSON')),
    entity('ARGO', 'SHIP'),
    entity('BEAGLE', 'SHIP'),
    entity('WRAITH', 'GHOST'),
    entity('RED SKY', 'OMEN'),
  ],
  town: [entity('DOVER', 'PLACE'), entity('CALAIS', 'PLACE'), entity('BRUGES', 'PLACE'), entity('MAYOR', 'PERSON')],
}

const responders: Responder[] = [
  ({ kind, messages }) => {
    if (kind !== 'extract_graph') return undefined
    const first = messages.find((m) => m.role === 'user')?.content ?? ''
    const unit = first.includes('crew of the ships') ? 'sea' : 'town'
    return `${REPLIES[unit]!.join('##\n')}\n<|COMPLETE|>`
  },
]

interface TypesFile {
  strategy: string
  max_types: number
  min_share: number
  types: string[]
  counts: Array<{ type: string; entities: number; share: number }>
}

describe('discovered_types.json', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ responders })
  })
  afterAll(async () => {
    await llm?.close()
  })

  async function run(extraYaml: string): Promise<{ root: string; file: () => Promise<TypesFile> }> {
    const settingsYaml = `${fakeModelSettingsYaml(llm.baseUrl)}extract_graph:\n  max_gleanings: 0\n${extraYaml}`
    const t = await createTestContext({
      settingsYaml,
      files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, UNITS) },
      models: (settings, cache) =>
        createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow('extract_graph'),
    })
    await extractGraph.run(t.ctx)
    const path = join(t.root, 'output', 'discovered_types.json')
    return { root: t.root, file: async () => JSON.parse(await readFile(path, 'utf8')) as TypesFile }
  }

  it("keeps each document's types of at least 10 %, in turn, with every type's count and share", async () => {
    const { file } = await run('  discovered_types: true\n')
    const types = await file()
    expect(types).toMatchObject({ strategy: 'stratified', max_types: 15, min_share: 0.1 })
    expect(types.types).toEqual(['PERSON', 'PLACE', 'SHIP'])
    expect(types.counts[0]).toEqual({ type: 'PERSON', entities: 17, share: 17 / 24 })
    expect(types.counts.map((c) => c.type)).toEqual(['PERSON', 'PLACE', 'SHIP', 'GHOST', 'OMEN'])
  })

  it("follows the share and count settings (prompt-tune's 12 / 5 % is one setting away)", async () => {
    const loose = await (await run('  discovered_types: true\n  discovered_types_min_share: 0.05\n')).file()
    expect(loose.types).toEqual(['PERSON', 'PLACE', 'SHIP', 'GHOST', 'OMEN'])
    const few = await (await run('  discovered_types: true\n  discovered_types_max: 2\n')).file()
    expect(few.types).toEqual(['PERSON', 'PLACE'])
  })

  it('is not written by default', async () => {
    const { file } = await run('')
    await expect(file()).rejects.toThrow(/ENOENT/)
  })
})
