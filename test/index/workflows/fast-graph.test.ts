import { describe, expect, it } from 'vitest'
import { GraphragError } from '../../../src/errors.js'
import { extractGraphNlp } from '../../../src/index/workflows/extract_graph_nlp.js'
import { pruneGraph } from '../../../src/index/workflows/prune_graph.js'
import { NLP_ENTITIES } from '../../../src/model/entities.js'
import { NLP_RELATIONSHIPS } from '../../../src/model/relationships.js'
import { BASE_TEXT_UNITS } from '../../../src/model/text-units.js'
import { createTestContext } from '../../support/workflow-context.js'

const TEXTS = [
  'Old Scrooge sat in the counting-house. Bob Cratchit copied letters for Scrooge by a small fire.',
  'Bob Cratchit went home to Camden Town, where Tiny Tim waited by the fire with Mrs Cratchit.',
  'The ghost of Jacob Marley visited Scrooge. Marley wore a heavy chain on Christmas Eve.',
  'Scrooge and Bob Cratchit spoke of Tiny Tim on Christmas morning.',
]
const units = TEXTS.map((text, i) => ({ id: `tu${i}`, document_id: 'doc', text, n_tokens: text.length }))

describe('extract_graph_nlp and prune_graph workflows', () => {
  it('write the noun graph in the reference column order, cache phrases, and prune it', async () => {
    const settingsYaml = 'prune_graph:\n  min_node_freq: 1\n  min_edge_weight_pct: 0\n  remove_ego_nodes: false\n'
    const { ctx, tables, stats, root } = await createTestContext({ settingsYaml })
    await tables.write(BASE_TEXT_UNITS, units)
    const result = await extractGraphNlp.run(ctx)
    const entities = await tables.read(NLP_ENTITIES)
    const relationships = await tables.read(NLP_RELATIONSHIPS)
    expect(result.rows).toEqual({ entities: entities.length, relationships: relationships.length })
    const titles = entities.map((e) => e.title)
    for (const name of ['SCROOGE', 'BOB CRATCHIT', 'TINY TIM', 'JACOB MARLEY', 'CHRISTMAS EVE'])
      expect(titles).toContain(name)
    expect(entities.every((e) => e.type === 'NOUN PHRASE' && e.description === '')).toBe(true)
    expect(entities.find((e) => e.title === 'SCROOGE')?.text_unit_ids).toEqual(['tu0', 'tu2', 'tu3'])
    expect(relationships.every((r) => r.source < r.target)).toBe(true)
    expect(Object.keys(entities[0]!)).toEqual(['title', 'frequency', 'text_unit_ids', 'type', 'description'])

    // Second run: every unit comes from the cache (extract_noun_phrases partition), same tables.
    const cached = await createTestContext({ root })
    await extractGraphNlp.run(cached.ctx)
    expect(cached.stats.counters.cache_hits).toBe(units.length)
    expect(await cached.tables.read(NLP_ENTITIES)).toEqual(entities)
    expect(stats.failures).toEqual([])

    const pruned = await pruneGraph.run(ctx)
    const after = await tables.read(NLP_ENTITIES)
    expect(pruned.rows?.entities).toBe(after.length)
    expect(pruned.summary).toEqual({
      removed_entities: entities.length - after.length,
      removed_relationships: relationships.length - (await tables.read(NLP_RELATIONSHIPS)).length,
    })
    expect(after.length).toBeLessThanOrEqual(entities.length)
    expect(after.every((e) => e.frequency >= 1)).toBe(true)
  })

  it('fails like the reference when no noun phrase is found, and when pruning leaves nothing', async () => {
    const { ctx, tables } = await createTestContext({})
    await tables.write(BASE_TEXT_UNITS, [{ id: 'a', document_id: 'd', text: 'it was so.', n_tokens: 3 }])
    await expect(extractGraphNlp.run(ctx)).rejects.toSatisfy((e) => e instanceof GraphragError && e.code === 'WORKFLOW')

    await tables.write(NLP_ENTITIES, [
      { title: 'A', frequency: 1, text_unit_ids: ['a'], type: 'NOUN PHRASE', description: '' },
    ])
    await tables.write(NLP_RELATIONSHIPS, [])
    await expect(pruneGraph.run(ctx)).rejects.toSatisfy((e) => e instanceof GraphragError && e.code === 'WORKFLOW')
  })
})
