/**
 * update_entities_relationships counts, per table, the rows an update added, removed, changed and left
 * as they were: an entity by its type, description and text units (in order), a relationship by its
 * description, weight and text units.
 */
import { describe, expect, it } from 'vitest'
import { updateEntitiesRelationships } from '../../../src/index/workflows/update_entities_relationships.js'
import { ENTITIES } from '../../../src/model/entities.js'
import { RELATIONSHIPS } from '../../../src/model/relationships.js'
import { pickColumns } from '../../../src/model/schema.js'
import { MemoryTableStore } from '../../../src/storage/table-store.js'
import { createTestContext } from '../../support/workflow-context.js'

const ENTITY = pickColumns(ENTITIES, ['title', 'type', 'description', 'text_unit_ids'])
const RELATIONSHIP = pickColumns(RELATIONSHIPS, ['source', 'target', 'description', 'weight', 'text_unit_ids'])

type Entity = [title: string, type: string, description: string, units: string[]]
type Relationship = [source: string, target: string, description: string, weight: number, units: string[]]

async function generation(entities: Entity[], relationships: Relationship[]): Promise<MemoryTableStore> {
  const store = new MemoryTableStore()
  await store.write(
    ENTITY,
    entities.map(([title, type, description, text_unit_ids]) => ({ title, type, description, text_unit_ids })),
  )
  await store.write(
    RELATIONSHIP,
    relationships.map(([source, target, description, weight, text_unit_ids]) => ({
      source,
      target,
      description,
      weight,
      text_unit_ids,
    })),
  )
  return store
}

describe('update_entities_relationships', () => {
  it('counts each change of a compared field, and only those', async () => {
    const previous = await generation(
      [
        ['SAME', 'PERSON', 'kept', ['t1', 't2']],
        ['RETYPED', 'PERSON', 'd', ['t1']],
        ['REDESCRIBED', '', 'old', ['t1']],
        ['MORE UNITS', 'PLACE', 'd', ['t1']],
        ['REORDERED', 'PLACE', 'd', ['t1', 't2']],
        ['GONE', 'PLACE', 'd', ['t3']],
      ],
      [
        ['SAME', 'RETYPED', 'r', 2, ['t1']],
        ['SAME', 'REDESCRIBED', 'r', 2, ['t1']],
        ['SAME', 'MORE UNITS', 'r', 2, ['t1']],
        ['SAME', 'GONE', 'r', 1, ['t3']],
      ],
    )
    const current = await generation(
      [
        ['SAME', 'PERSON', 'kept', ['t1', 't2']],
        ['RETYPED', 'PLACE', 'd', ['t1']],
        ['REDESCRIBED', '', 'new', ['t1']],
        ['MORE UNITS', 'PLACE', 'd', ['t1', 't4']],
        ['REORDERED', 'PLACE', 'd', ['t2', 't1']],
        ['NEW', 'PLACE', 'd', ['t4']],
      ],
      [
        ['SAME', 'RETYPED', 'r', 2, ['t1']],
        ['SAME', 'REDESCRIBED', 'r', 3, ['t1']],
        ['SAME', 'MORE UNITS', 'r', 2, ['t1', 't4']],
        ['SAME', 'NEW', 'r', 1, ['t4']],
        ['NEW', 'SAME', 'r', 1, ['t4']],
      ],
    )
    const { ctx } = await createTestContext()
    const result = await updateEntitiesRelationships.run({ ...ctx, tables: current, previousTables: previous })
    expect(result.summary).toEqual({
      entities_added: 1,
      entities_removed: 1,
      entities_changed: 4,
      entities_unchanged: 1,
      relationships_added: 2,
      relationships_removed: 1,
      relationships_changed: 2,
      relationships_unchanged: 1,
    })
  })
})
