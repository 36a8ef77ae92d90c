// prune_graph decides on source, target and weight, then reads in full only the relationships it keeps:
// what it writes must be the very rows pruning the full tables gives (lists and descriptions included).
import { describe, expect, it } from 'vitest'
import { pruneGraph as prune } from '../../../src/index/operations/prune-graph.js'
import { pruneGraph } from '../../../src/index/workflows/prune_graph.js'
import { NLP_ENTITIES } from '../../../src/model/entities.js'
import { NLP_RELATIONSHIPS } from '../../../src/model/relationships.js'
import { createTestContext } from '../../support/workflow-context.js'

const TITLES = ['A', 'B', 'C', 'D', 'E', 'F', 'G']
const entities = TITLES.map((title, i) => ({
  title,
  frequency: i === 6 ? 1 : 3,
  text_unit_ids: [`u${i}`],
  type: 'NOUN PHRASE',
  description: '',
}))
/** Every ordered pair, each with its own weight, text units and description, so a row read for another shows. */
const relationships = TITLES.flatMap((source, i) =>
  TITLES.slice(i + 1).map((target, j) => ({
    source,
    target,
    weight: ((i * 7 + j * 3) % 5) + 1,
    text_unit_ids: [`u${i}`, `u${i + j + 1}`, `pair-${source}${target}`],
    description: `${source} with ${target}`,
  })),
)

describe('prune_graph reads in full only the relationships it keeps', () => {
  it('writes exactly the full rows that pruning the whole tables keeps, in table order', async () => {
    const settingsYaml = 'prune_graph:\n  min_node_freq: 2\n  min_edge_weight_pct: 50\n  remove_ego_nodes: true\n'
    const { ctx, tables } = await createTestContext({ settingsYaml })
    await tables.write(NLP_ENTITIES, entities)
    await tables.write(NLP_RELATIONSHIPS, relationships)
    const expected = prune(entities, relationships, ctx.settings.prune_graph)
    expect(expected.relationships.length).toBeGreaterThan(0)
    expect(expected.relationships.length).toBeLessThan(relationships.length / 2)

    const result = await pruneGraph.run(ctx)
    expect(await tables.read(NLP_RELATIONSHIPS)).toEqual(expected.relationships)
    expect(await tables.read(NLP_ENTITIES)).toEqual(expected.entities)
    expect(result.summary).toEqual({
      removed_entities: entities.length - expected.entities.length,
      removed_relationships: relationships.length - expected.relationships.length,
    })
  })

  it('keeps every full row when pruning would leave nothing (the warning case)', async () => {
    const settingsYaml = 'prune_graph:\n  min_node_freq: 100\n'
    const { ctx, tables, stats } = await createTestContext({ settingsYaml })
    await tables.write(NLP_ENTITIES, entities)
    await tables.write(NLP_RELATIONSHIPS, relationships)
    const result = await pruneGraph.run(ctx)
    expect(await tables.read(NLP_RELATIONSHIPS)).toEqual(relationships)
    expect(await tables.read(NLP_ENTITIES)).toEqual(entities)
    expect(result.summary).toEqual({ removed_entities: 0, removed_relationships: 0 })
    expect(stats.warnings.join('\n')).toContain('prune_graph would leave 0 of 7 entities')
  })
})
