/**
 * extract_graph's unit records (operations/extract-graph/unit-records.ts): each unit's outcome is kept
 * in the model cache beside its answers and replayed, without reading the answers again, while every
 * answer it names is there unchanged and nothing else that shapes the conversation changed.
 */
import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createModelRegistry } from '../../../src/index/run/models.js'
import { UNIT_RECORD_PARTITION } from '../../../src/index/operations/extract-graph/unit-records.js'
import { extractGraph } from '../../../src/index/workflows/extract_graph.js'
import { SILENT_LOGGER } from '../../../src/logger.js'
import { BASE_TEXT_UNITS, EXTRACTED_ENTITIES, EXTRACTED_RELATIONSHIPS } from '../../../src/model/index.js'
import { encodeParquet } from '../../../src/storage/parquet.js'
import { fakeModelSettingsYaml, startFakeLlm, type FakeLlm, type Responder } from '../../support/fake-llm/index.js'
import type { Settings } from '../../../src/config/schema.js'
import type { KeyValueStore } from '../../../src/storage/key-value-store.js'
import { createTestContext } from '../../support/workflow-context.js'

const UNITS = [
  { id: 'u1', document_id: 'doc', text: 'Scrooge sat alone with Marley.', n_tokens: 6 },
  { id: 'u2', document_id: 'doc', text: 'Fezziwig danced with Belle.', n_tokens: 5 },
  { id: 'u3', document_id: 'doc', text: 'Tiny Tim blessed everyone.', n_tokens: 4 },
]

/** The first answer names the unit's two capitalised words; the gleaning answer adds a relationship. */
const responders: Responder[] = [
  ({ kind, messages }) => {
    const unit = UNITS.find((u) => messages[0]?.content.includes(u.text))
    const [a, b] = (unit?.text.match(/[A-Z][a-z]+/g) ?? []).map((w) => w.toUpperCase())
    if (kind === 'extract_graph')
      return `("entity"<|>${a}<|>PERSON<|>${a} in ${unit?.id})##\n("entity"<|>${b}<|>PERSON<|>${b} in ${unit?.id})\n<|COMPLETE|>`
    if (kind === 'extract_graph_continue') return `("relationship"<|>${a}<|>${b}<|>${a} meets ${b}<|>3)\n<|COMPLETE|>`
    return undefined
  },
]

const settingsYaml0 = (extra: string) => (url: string) => `${fakeModelSettingsYaml(url)}${extra}`

describe('extract_graph replays recorded units', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({ responders })
  })
  afterAll(async () => {
    await llm?.close()
  })

  const settingsYaml = (extra = '') => `${fakeModelSettingsYaml(llm.baseUrl)}${extra}`

  /** One run of the workflow in `root` (a new project when absent), sharing that project's cache. */
  async function run(root?: string, extra = '', noCache = false) {
    const t = await createTestContext({
      ...(root === undefined
        ? {
            settingsYaml: settingsYaml(extra),
            files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, UNITS) },
          }
        : { root }),
      models: (settings, cache) =>
        createModelRegistry(settings, { cache, log: SILENT_LOGGER, noCache }).forWorkflow('extract_graph'),
    })
    const from = llm.requests.length
    await extractGraph.run(t.ctx)
    return {
      t,
      requests: llm.requests.slice(from).filter((r) => r.kind !== 'summarize_descriptions').length,
      replayed: t.stats.counters.replayed_units,
      tables: {
        entities: await t.tables.read(EXTRACTED_ENTITIES),
        relationships: await t.tables.read(EXTRACTED_RELATIONSHIPS),
      },
    }
  }

  /** The recorded unit whose first answer names `title`: its record's answers' cache keys. */
  async function answerKeysOf(t: Awaited<ReturnType<typeof run>>['t'], title: string): Promise<string[]> {
    const partition = t.ctx.cache.child('extract_graph')
    for (const key of await partition.child(UNIT_RECORD_PARTITION).keys()) {
      const record = JSON.parse((await partition.child(UNIT_RECORD_PARTITION).get(key))!) as {
        answers: Array<[string, string]>
        entities: Array<[string]>
      }
      if (record.entities.some(([t]) => t === title)) return record.answers.map(([k]) => k)
    }
    throw new Error(`no record names ${title}`)
  }

  it('a second run replays every unit from its record: the same tables', async () => {
    const first = await run()
    expect(first.requests).toBe(6) // three units, a first answer and one gleaning each
    expect(first.replayed).toBe(0)
    const second = await run(first.t.root)
    expect(second.replayed).toBe(3)
    expect(second.requests).toBe(0)
    expect(second.tables).toEqual(first.tables)
    expect(second.tables.relationships.map((r) => [r.source, r.target])).toContainEqual(['FEZZIWIG', 'BELLE'])
  })

  it('a unit whose answer changed in the cache is read from the new answer; the others replay', async () => {
    const first = await run()
    const [firstAnswer] = await answerKeysOf(first.t, 'FEZZIWIG')
    const store = first.t.ctx.cache.child('extract_graph')
    const entry = JSON.parse((await store.get(firstAnswer!))!) as { reply: { content: string } }
    entry.reply.content = entry.reply.content.replaceAll('FEZZIWIG', 'FRED')
    await store.set(firstAnswer!, JSON.stringify(entry))
    await store.flush()
    const second = await run(first.t.root)
    expect(second.replayed).toBe(2)
    const titles = second.tables.entities.map((e) => e.title)
    expect(titles).toContain('FRED')
    expect(titles).not.toContain('FEZZIWIG')
  })

  it('a unit whose answer is gone from the cache asks the model again, and only that unit', async () => {
    const first = await run()
    const keys = await answerKeysOf(first.t, 'TINY')
    await first.t.ctx.cache.child('extract_graph').delete(keys[1]!)
    await first.t.ctx.cache.flush()
    const second = await run(first.t.root)
    expect(second.replayed).toBe(2)
    expect(second.requests).toBe(1)
    expect(second.tables).toEqual(first.tables)
  })

  it.each([
    ['entity types', settingsYaml0('extract_graph:\n  entity_types: [person, place]\n'), 6],
    // The first answers come from the cache; the gleaning is not asked for.
    ['gleanings', settingsYaml0('extract_graph:\n  max_gleanings: 0\n'), 0],
    ['chat model', (url: string) => fakeModelSettingsYaml(url, { chatModel: 'gpt-4.1' }), 6],
  ] as const)('other %s replay nothing: the same units, the same cache', async (_, changed, requests) => {
    const first = await run()
    await writeFile(join(first.t.root, 'settings.yaml'), changed(llm.baseUrl))
    const second = await run(first.t.root)
    expect(second.replayed).toBe(0)
    expect(second.requests).toBe(requests)
  })

  it('without a cache nothing is recorded and nothing replays', async () => {
    const first = await run(undefined, '', true)
    const second = await run(first.t.root, '', true)
    expect(second.replayed).toBe(0)
    expect(second.requests).toBe(6)
  })
})

describe('a replayed unit keeps its bookkeeping', () => {
  let llm: FakeLlm
  const messy: Responder[] = [
    ({ kind }) =>
      kind === 'extract_graph'
        ? '("entity"<|>SCROOGE<|>PERSON<|>a miser)##\n("entity"<|>MARLEY)##\n("entity"<|>BELLE<|>PERSON<|>his love)##\n("relationship"<|>SCROOGE<|>BELLE<|>once engaged<|>strongly)\n<|COMPLETE|>'
        : kind === 'extract_graph_continue'
          ? '<|COMPLETE|>'
          : undefined,
  ]
  beforeAll(async () => {
    llm = await startFakeLlm({ responders: messy })
  })
  afterAll(async () => {
    await llm?.close()
  })

  it('parse drops, defaulted weights, calls and warnings as the run that read the replies', async () => {
    const models = (settings: Settings, cache: KeyValueStore) =>
      createModelRegistry(settings, { cache, log: SILENT_LOGGER }).forWorkflow('extract_graph')
    const first = await createTestContext({
      settingsYaml: fakeModelSettingsYaml(llm.baseUrl),
      files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, UNITS.slice(0, 1)) },
      models,
    })
    const read = await extractGraph.run(first.ctx)
    const second = await createTestContext({ root: first.root, models })
    const replayed = await extractGraph.run(second.ctx)
    const { replayed_units: none, ...counters } = first.stats.counters
    const { replayed_units: one, ...again } = second.stats.counters
    expect([none, one]).toEqual([0, 1])
    expect(counters).toMatchObject({ parse_drops: 1, weight_defaults: 1, extraction_calls: 2 })
    expect(again).toEqual(counters)
    expect(second.stats.warnings).toEqual(first.stats.warnings)
    expect(replayed).toEqual(read)
  })
})
