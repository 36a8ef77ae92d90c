import { describe, expect, it } from 'vitest'
import { updateCommunityReports } from '../../../src/index/workflows/update_community_reports.js'
import { COMMUNITY_REPORTS } from '../../../src/model/community-reports.js'
import { ENTITIES } from '../../../src/model/entities.js'
import { RELATIONSHIPS } from '../../../src/model/relationships.js'
import { pickColumns, type RowOf, type TableSchema } from '../../../src/model/schema.js'
import { MemoryTableStore, type ReadOptions } from '../../../src/storage/table-store.js'
import { createTestContext } from '../../support/workflow-context.js'

/** A memory store listing the tables read from it. */
class CountingStore extends MemoryTableStore {
  readonly reads: string[] = []
  override read<S extends TableSchema>(schema: S, options?: ReadOptions): Promise<RowOf<S>[]> {
    this.reads.push(schema.name)
    return super.read(schema, options)
  }
}

const TITLES = pickColumns(ENTITIES, ['human_readable_id', 'title'])
const REPORTS = pickColumns(COMMUNITY_REPORTS, ['full_content_json'])
const RELATIONSHIP_IDS = pickColumns(RELATIONSHIPS, ['human_readable_id', 'source', 'target'])

async function generation(titles: string[], reports: string[]): Promise<CountingStore> {
  const store = new CountingStore()
  await store.write(
    TITLES,
    titles.map((title, i) => ({ human_readable_id: i, title })),
  )
  await store.write(
    REPORTS,
    reports.map((full_content_json) => ({ full_content_json })),
  )
  store.reads.length = 0
  return store
}

async function summary(previous: CountingStore, current: CountingStore) {
  const { ctx } = await createTestContext()
  const result = await updateCommunityReports.run({ ...ctx, tables: current, previousTables: previous })
  return result.summary
}

describe('update_community_reports', () => {
  it('counts a report kept with renumbered citations as reused, one citing other entities as regenerated', async () => {
    // A new entity first shifts every human_readable_id by one.
    const previous = await generation(
      ['ALICE', 'BOB'],
      ['Alice [Data: Entities (0)]', 'Bob [Data: Entities (1)]', 'plain'],
    )
    const current = await generation(
      ['CAROL', 'ALICE', 'BOB'],
      ['Alice [Data: Entities (1)]', 'Bob [Data: Entities (0)]', 'plain'],
    )
    expect(await summary(previous, current)).toEqual({
      reports: 3,
      reports_regenerated: 1,
      reports_reused: 2,
      regenerated_share: 0.333,
    })
  })

  it('reads neither generation’s entities, relationships, claims or text units when every report is found as it was', async () => {
    const texts = ['Alice [Data: Entities (0)]', 'plain']
    const previous = await generation(['ALICE'], texts)
    const current = await generation(['ALICE', 'BOB'], [...texts].reverse())
    expect(await summary(previous, current)).toMatchObject({ reports: 2, reports_regenerated: 0, reports_reused: 2 })
    expect([...previous.reads, ...current.reads]).toEqual(['community_reports', 'community_reports'])
  })

  it('counts a report that starts unlike every previous one as regenerated without reading the tables behind the maps', async () => {
    const previous = await generation(['ALICE', 'BOB'], ['Alice [Data: Entities (0)]', 'Bob [Data: Entities (1)]'])
    const current = await generation(
      ['ALICE', 'BOB'],
      ['Alice [Data: Entities (0)]', 'Bob and Alice [Data: Entities (0, 1)]', 'no citation'],
    )
    expect(await summary(previous, current)).toMatchObject({ reports: 3, reports_regenerated: 2, reports_reused: 1 })
    expect([...previous.reads, ...current.reads]).toEqual(['community_reports', 'community_reports'])
  })

  it('maps the relationships and entities a renumbered report cites among many it does not', async () => {
    const names = Array.from({ length: 50 }, (_, i) => `E${i}`)
    const links = (order: string[]) =>
      order.slice(1).map((target, i) => ({ human_readable_id: i, source: order[0]!, target }))
    const previous = await generation(names, ['E3 and E7 [Data: Entities (3, 7); Relationships (6)]'])
    await previous.write(RELATIONSHIP_IDS, links(names))
    // Two new entities first: every id shifts by two; the relationships are listed in another order.
    const now = ['N0', 'N1', ...names]
    const current = await generation(now, [
      'E3 and E7 [Data: Entities (5, 9); Relationships (2)]',
      'E3 and E7 [Data: Entities (5, 9); Relationships (3)]',
    ])
    await current.write(RELATIONSHIP_IDS, [
      ...links(['E0', ...names.slice(5, 9)]).map((r, i) => ({ ...r, human_readable_id: i })),
      ...links(['E0', 'E1', 'E2', 'E3', 'E4']).map((r, i) => ({ ...r, human_readable_id: 10 + i })),
    ])
    // Relationships (6) was E0→E7; now E0→E7 is 2 (and 3 is E0→E8): the first is renumbered, the second not.
    expect(await summary(previous, current)).toMatchObject({ reports: 2, reports_regenerated: 1, reports_reused: 1 })
  })
})
