/**
 * Fuzzy and embedding merges in extract_graph (entity_resolution.fuzzy_threshold,
 * embedding_threshold, confirm_with_model) through the fake model server: what becomes a candidate,
 * what the model confirms, what merges, what is counted, and that a warm re-run asks nothing.
 */
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
import {
  fakeEmbedding,
  fakeModelSettingsYaml,
  startFakeLlm,
  type FakeLlm,
  type Responder,
} from '../../support/fake-llm/index.js'
import { createTestContext } from '../../support/workflow-context.js'

const entity = (name: string, type: string) => `("entity"<|>${name}<|>${type}<|>${name} in the record)`
const relation = (a: string, b: string) => `("relationship"<|>${a}<|>${b}<|>${a} deals with ${b}<|>2)`

/** Unit text → the extraction reply. HARBOUR/HARBOR and NELL/NELLIE are one thing each; 7/9 and CARTER/CARVER are two. */
const REPLIES: Record<string, string[]> = {
  'Unit one.': [
    entity('HARBOUR AUTHORITY', 'ORGANIZATION'),
    entity('ROUTE 7 FERRY', 'ORGANIZATION'),
    entity('NELL HARROW', 'PERSON'),
    relation('HARBOUR AUTHORITY', 'ROUTE 7 FERRY'),
  ],
  'Unit two.': [
    entity('HARBOR AUTHORITY', 'ORGANIZATION'),
    entity('ROUTE 9 FERRY', 'ORGANIZATION'),
    entity('NELLIE HARROW', 'PERSON'),
    relation('HARBOR AUTHORITY', 'NELLIE HARROW'),
  ],
  'Unit three.': [
    entity('HARBOUR AUTHORITY', 'ORGANIZATION'),
    entity('CARTER', 'PERSON'),
    entity('CARVER', 'PERSON'),
    relation('CARTER', 'CARVER'),
  ],
}
const responder: Responder = (req) => {
  if (req.kind !== 'extract_graph') return undefined
  const text = req.messages.map((m) => m.content).join('\n')
  const found = Object.entries(REPLIES).find(([unit]) => text.includes(unit))?.[1]
  return found === undefined ? undefined : `${found.join('##')}<|COMPLETE|>`
}

/** Two names whose embeddings are close (cosine ≈ 0.995): a vector and a slightly turned copy. */
function closePair(a: string, b: string): Record<string, number[]> {
  const base = fakeEmbedding(a)
  const turn = fakeEmbedding(b)
  return { [a]: base, [b]: base.map((v, i) => v + 0.1 * turn[i]!) }
}

const FUZZY = 'entity_resolution:\n  fuzzy_threshold: 0.9\n'
const BOTH = `${FUZZY}  embedding_threshold: 0.95\n`

describe('extract_graph: fuzzy and embedding merges', () => {
  let llm: FakeLlm
  beforeAll(async () => {
    llm = await startFakeLlm({
      responders: [responder],
      fixedEmbeddings: {
        ...closePair('NELL HARROW (person)', 'NELLIE HARROW (person)'),
        ...closePair('CARTER (person)', 'CARVER (person)'),
      },
    })
  })
  afterAll(async () => llm.close())

  const run = async (settings: string, root?: string) => {
    const units = Object.keys(REPLIES).map((text, i) => ({ id: `u${i + 1}`, document_id: 'd', text, n_tokens: 3 }))
    const t = await createTestContext({
      ...(root === undefined
        ? {
            settingsYaml: `${fakeModelSettingsYaml(llm.baseUrl)}extract_graph:\n  max_gleanings: 0\n${settings}`,
            files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, units) },
          }
        : { root }),
      models: (s, cache) => createModelRegistry(s, { cache, log: SILENT_LOGGER }).forWorkflow(extractGraph.name),
    })
    const from = llm.requests.length
    await extractGraph.run(t.ctx)
    const titles = (await t.tables.read(EXTRACTED_ENTITIES)).map((e) => e.title).sort()
    return { t, titles, requests: llm.requests.slice(from) }
  }

  it('off by default: only equal keys merge, and no embedding or confirmation request is made', async () => {
    const { titles, requests } = await run('')
    expect(titles).toHaveLength(8)
    expect(requests.map((r) => r.kind).filter((k) => k !== 'extract_graph' && k !== 'summarize_descriptions')).toEqual(
      [],
    )
  })

  it('with confirm_with_model, merges only the pairs the model confirms, keeps every alias and counts each outcome', async () => {
    const { t, titles, requests } = await run(`${BOTH}  confirm_with_model: true\n`)
    expect(titles).toEqual(['CARTER', 'CARVER', 'HARBOUR AUTHORITY', 'NELL HARROW', 'ROUTE 7 FERRY', 'ROUTE 9 FERRY'])
    // Four candidates (two by edit distance, two by embedding) in one confirmation call.
    const confirm = requests.filter((r) => r.kind === 'resolution_confirm')
    expect(confirm).toHaveLength(1)
    expect(JSON.stringify(confirm[0]!.body)).toContain('\\"ROUTE 7 FERRY\\" [ORGANIZATION]')
    expect(requests.filter((r) => r.kind === 'embedding')).toHaveLength(1)
    expect(t.stats.counters).toMatchObject({
      resolution_fuzzy_candidates: 2,
      resolution_embedding_candidates: 2,
      resolution_candidates: 4,
      resolution_confirmed: 2,
      resolution_rejected: 2,
      resolution_unanswered: 0,
    })
    const aliases = (await t.tables.read(ENTITY_ALIASES)).map((a) => [a.title, a.alias])
    expect(aliases.sort()).toEqual([
      ['HARBOUR AUTHORITY', 'HARBOR AUTHORITY'],
      ['NELL HARROW', 'NELLIE HARROW'],
    ])
    // Relationships follow the merged endpoints.
    const relationships = (await t.tables.read(EXTRACTED_RELATIONSHIPS)).map((r) =>
      [r.source, r.target].sort().join(' ~ '),
    )
    expect(relationships.sort()).toEqual([
      'CARTER ~ CARVER',
      'HARBOUR AUTHORITY ~ NELL HARROW',
      'HARBOUR AUTHORITY ~ ROUTE 7 FERRY',
    ])

    // A warm re-run asks the model nothing and writes the same tables.
    const again = await run('', t.root)
    expect(again.requests).toEqual([])
    expect(again.titles).toEqual(titles)
  })

  it('without confirmation every candidate above its threshold merges; fuzzy alone finds only the spelling variants', async () => {
    const both = await run(BOTH)
    expect(both.titles).toEqual(['CARTER', 'HARBOUR AUTHORITY', 'NELL HARROW', 'ROUTE 7 FERRY'])
    expect(both.requests.some((r) => r.kind === 'resolution_confirm')).toBe(false)
    const fuzzy = await run(FUZZY)
    expect(fuzzy.titles).toEqual([
      'CARTER',
      'CARVER',
      'HARBOUR AUTHORITY',
      'NELL HARROW',
      'NELLIE HARROW',
      'ROUTE 7 FERRY',
    ])
    expect(fuzzy.requests.some((r) => r.kind === 'embedding')).toBe(false)
  })

  it('a pair the reply leaves out is not merged, and is counted and reported', async () => {
    const partial: Responder = (req) =>
      req.kind === 'resolution_confirm' ? JSON.stringify({ decisions: [{ pair: 1, same: true }] }) : undefined
    const server = await startFakeLlm({ responders: [partial, responder] })
    try {
      const units = Object.keys(REPLIES).map((text, i) => ({ id: `u${i + 1}`, document_id: 'd', text, n_tokens: 3 }))
      const t = await createTestContext({
        settingsYaml: `${fakeModelSettingsYaml(server.baseUrl)}extract_graph:\n  max_gleanings: 0\n${FUZZY}  confirm_with_model: true\n`,
        files: { 'output/text_units.parquet': encodeParquet(BASE_TEXT_UNITS, units) },
        models: (s, cache) => createModelRegistry(s, { cache, log: SILENT_LOGGER }).forWorkflow(extractGraph.name),
      })
      await extractGraph.run(t.ctx)
      expect(t.stats.counters).toMatchObject({ resolution_confirmed: 1, resolution_unanswered: 1 })
      expect(t.stats.warnings.join('\n')).toMatch(/1 candidate pairs got no usable answer .*; they were not merged/)
      // Pair 1 is the most similar: HARBOR / HARBOUR AUTHORITY.
      const titles = (await t.tables.read(EXTRACTED_ENTITIES)).map((e) => e.title)
      expect(titles).toContain('ROUTE 9 FERRY')
      expect(titles).not.toContain('HARBOR AUTHORITY')
    } finally {
      await server.close()
    }
  })
})
