import { describe, expect, it } from 'vitest'
import { finalizeGraph, renderGraphml } from '../../../src/index/operations/finalize-graph.js'
import { entityId, relationshipId } from '../../../src/index/operations/graph-ids.js'
import { ENTITIES, EXTRACTED_ENTITIES, EXTRACTED_RELATIONSHIPS, RELATIONSHIPS } from '../../../src/model/index.js'
import { ParquetTableStore } from '../../../src/storage/table-store.js'
import { describeShared, sharedPath } from '../../support/shared.js'

const ent = (title: string) => ({
  title,
  type: 'PERSON',
  description: `${title}!`,
  text_unit_ids: ['u1'],
  frequency: 1,
})
const rel = (source: string, target: string, weight = 1) => ({
  source,
  target,
  description: `${source}>${target}`,
  weight,
  text_unit_ids: ['u1'],
})

describe('finalizeGraph', () => {
  it('computes undirected unique-pair degrees, skips empty and repeated titles and repeated pairs, derives ids', () => {
    const out = finalizeGraph(
      [ent('A'), ent(''), ent('B'), ent('C'), ent('A'), ent('D')],
      [rel('A', 'B'), rel('B', 'A', 3), rel('A', 'C'), rel('A', 'B', 9)],
    )
    expect(out.entities.map((e) => [e.human_readable_id, e.title, e.degree, e.id])).toEqual([
      [0, 'A', 2, entityId('A')],
      [1, 'B', 1, entityId('B')],
      [2, 'C', 1, entityId('C')],
      [3, 'D', 0, entityId('D')],
    ])
    expect(
      out.relationships.map((r) => [r.human_readable_id, r.source, r.target, r.weight, r.combined_degree, r.id]),
    ).toEqual([
      [0, 'A', 'B', 1, 3, relationshipId('A', 'B')],
      [1, 'B', 'A', 3, 3, relationshipId('B', 'A')],
      [2, 'A', 'C', 1, 3, relationshipId('A', 'C')],
    ])
  })

  it('ids are UUID-shaped, stable and distinct per key', () => {
    expect(entityId('SCROOGE')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(relationshipId('A', 'B')).not.toBe(relationshipId('B', 'A'))
  })

  it('renders GraphML of the undirected graph with weights', () => {
    const xml = renderGraphml([rel('A', 'B', 2), rel('B', 'A', 3), rel('A', 'C&D', 1.5)])
    expect(xml).toContain('<graph edgedefault="undirected">')
    expect(xml.match(/<node /g)).toHaveLength(3)
    expect(xml).toContain('<node id="C&amp;D" />')
    expect(xml).toContain('<edge source="A" target="B">\n      <data key="d0">3.0</data>')
    expect(xml).toContain('<data key="d0">1.5</data>')
    expect(xml.match(/<edge /g)).toHaveLength(2)
  })
})

describeShared('finalizeGraph on the reference graph', () => {
  it('reproduces degree, combined_degree and human_readable_id of the reference tables', async () => {
    const ref = new ParquetTableStore(sharedPath('reference', 'christmas-carol-index'))
    const entities = await ref.read(ENTITIES)
    const relationships = await ref.read(RELATIONSHIPS)
    const extracted = (await ref.read(EXTRACTED_ENTITIES)).map((e) => ({ ...e }))
    const out = finalizeGraph(extracted, await ref.read(EXTRACTED_RELATIONSHIPS))
    expect(out.entities.map((e) => [e.human_readable_id, e.title, e.degree])).toEqual(
      entities.map((e) => [e.human_readable_id, e.title, e.degree]),
    )
    expect(out.relationships.map((r) => [r.human_readable_id, r.source, r.target, r.combined_degree])).toEqual(
      relationships.map((r) => [r.human_readable_id, r.source, r.target, r.combined_degree]),
    )
  })
})
