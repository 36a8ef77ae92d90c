// extract_graph.max_entities_per_chunk / max_relationships_per_chunk (seed design 001): a chunk whose
// reply lists 60 entities and 60 relationships keeps 50 of each, chosen by mention count and weight.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { extractGraph } from '../../../src/index/workflows/extract_graph.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { BASE_TEXT_UNITS, EXTRACTED_ENTITIES, EXTRACTED_RELATIONSHIPS } from '../../../src/model/index.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import { createTestContext } from '../../support/workflow-context.js'

const name = (i: number) => `E${String(i).padStart(2, '0')}`
const UNITS = [
  { id: 'crowd', document_id: 'doc', text: 'A crowded market square with sixty named traders.', n_tokens: 10 },
  { id: 'quiet', document_id: 'doc', text: 'Scrooge sat alone with Marley.', n_tokens: 6 },
]

/**
 * 60 entities E00–E59, each once; E59 is linked to E00–E44 and E55–E58 (49 relationships, weight 5),
 * E58 to E00 (weight 3) and to E01–E10 (weight 1). Named least often: E45–E54 (once each).
 */
function crowdReply(): string {
  const records: string[] = []
  for (let i = 0; i < 60; i++) records.push(`("entity"<|>${name(i)}<|>PERSON<|>trader ${i})`)
  for (const i of [...Array(45).keys(), 55, 56, 57, 58])
    records.push(`("relationship"<|>E59<|>${name(i)}<|>trades with<|>5)`)
  records.push('("relationship"<|>E58<|>E00<|>rivals<|>3)')
  for (let i = 1; i <= 10; i++) records.push(`("relationship"<|>E58<|>${name(i)}<|>knows<|>1)`)
  return `${records.join('##\n')}\n<|COMPLETE|>`
}

const responders: Responder[] = [
  ({ kind, messages }) => {
    if (kind !== 'extract_graph') return undefined
    const first = messages.find((m) => m.role === 'user')?.content ?? ''
    if (first.includes('crowded market')) return crowdReply()
    return '("entity"<|>SCROOGE<|>PERSON<|>a miser)##\n("entity"<|>MARLEY<|>PERSON<|>his partner)##\n("relationship"<|>SCROOGE<|>MARLEY<|>partners<|>2)\n<|COMPLETE|>'
  },
]

describe('per-chunk caps of graph extraction', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ responders })
  })
  afterAll(async () => {
    await llm?.close()
  })

  async function run(extraYaml: string) {
    const settingsYaml = `${fakeModelSettingsYaml(llm.baseUrl)}extract_graph:\n  max_gleanings: 0\n${extraYaml}`
    const t = await createTestContext({
      settingsYaml,
      files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, UNITS) },
      models: (settings, cache) =>
        createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow('extract_graph'),
    })
    const result = await extractGraph.run(t.ctx)
    const entities = await t.tables.read(EXTRACTED_ENTITIES)
    const relationships = await t.tables.read(EXTRACTED_RELATIONSHIPS)
    return { t, result, entities, relationships }
  }

  it('keeps 50 entities and 50 relationships per chunk by default: the most named and the heaviest', async () => {
    const { t, result, entities, relationships } = await run('')
    const crowd = entities.filter((e) => e.text_unit_ids.includes('crowd')).map((e) => e.title)
    expect(crowd).toHaveLength(50)
    for (let i = 45; i <= 54; i++) expect(crowd).not.toContain(name(i))
    const fromCrowd = relationships.filter((r) => r.text_unit_ids.includes('crowd'))
    expect(fromCrowd).toHaveLength(50)
    expect(
      fromCrowd
        .filter((r) => r.source === 'E58' || r.target === 'E58')
        .map((r) => r.weight)
        .sort(),
    ).toEqual([3, 5])
    // The quiet chunk is under the caps: untouched.
    expect(
      entities
        .filter((e) => e.text_unit_ids.includes('quiet'))
        .map((e) => e.title)
        .sort(),
    ).toEqual(['MARLEY', 'SCROOGE'])
    expect(t.stats.counters.capped_entities).toBe(10)
    expect(t.stats.counters.capped_relationships).toBe(10)
    expect(result.summary).toMatchObject({ capped_entities: 10, capped_relationships: 10 })
  })

  it('0 turns the caps off, and other numbers are honoured', async () => {
    const off = await run('  max_entities_per_chunk: 0\n  max_relationships_per_chunk: 0\n')
    expect(off.entities.filter((e) => e.text_unit_ids.includes('crowd'))).toHaveLength(60)
    expect(off.relationships.filter((r) => r.text_unit_ids.includes('crowd'))).toHaveLength(60)
    expect(off.t.stats.counters.capped_entities ?? 0).toBe(0)

    const tight = await run('  max_entities_per_chunk: 2\n  max_relationships_per_chunk: 1\n')
    // E59 (50 mentions) and E58 (13); only E59–E58 survives among the relationships between them.
    expect(
      tight.entities
        .filter((e) => e.text_unit_ids.includes('crowd'))
        .map((e) => e.title)
        .sort(),
    ).toEqual(['E58', 'E59'])
    expect(
      tight.relationships.filter((r) => r.text_unit_ids.includes('crowd')).map((r) => [r.source, r.target]),
    ).toEqual([['E59', 'E58']])
  })

  it("writes extraction_results.json in the output folder when asked: each unit's records after the caps", async () => {
    const { t } = await run('  extraction_results: true\n')
    const file = JSON.parse(await readFile(join(t.root, 'output', 'extraction_results.json'), 'utf8')) as {
      text_units: Array<{ id: string; entities: Array<{ title: string }>; relationships: unknown[] }>
    }
    expect(file.text_units.map((u) => [u.id, u.entities.length, u.relationships.length])).toEqual([
      ['crowd', 50, 50],
      ['quiet', 2, 1],
    ])
    const off = await run('')
    await expect(readFile(join(off.t.root, 'output', 'extraction_results.json'), 'utf8')).rejects.toThrow(/ENOENT/)
  })

  it('refuses a negative cap naming the key', async () => {
    await expect(run('  max_entities_per_chunk: -1\n')).rejects.toThrow(/extract_graph\.max_entities_per_chunk/)
  })
})
