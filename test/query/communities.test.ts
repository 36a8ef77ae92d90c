import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { COMMUNITIES, COMMUNITY_REPORTS, type CommunityReportRow, type CommunityRow } from '../../src/model/index.js'
import { decodeParquet } from '../../src/storage/index.js'
import { communityByEntity, reportsAtLevel } from '../../src/query/context/communities.js'
import { describeShared, sharedPath } from '../support/shared.js'

function community(c: number, level: number, parent: number, children: number[], entityIds: string[]): CommunityRow {
  return {
    id: `c${c}`,
    human_readable_id: c,
    community: c,
    level,
    parent,
    children,
    title: `Community ${c}`,
    entity_ids: entityIds,
    relationship_ids: [],
    text_unit_ids: [],
    period: '',
    size: entityIds.length,
  }
}
function report(c: CommunityRow): CommunityReportRow {
  return {
    id: `r${c.community}`,
    human_readable_id: c.community,
    community: c.community,
    level: c.level,
    parent: c.parent,
    children: c.children,
    title: `R${c.community}`,
    summary: '',
    full_content: '',
    rank: 1,
    rating_explanation: '',
    findings: [],
    full_content_json: '',
    period: '',
    size: c.size,
  }
}

describe('reports at a community level', () => {
  // 0 → {2, 3}; 1 has no children; 2 → {4, 5}. Each level partitions its parent's entities.
  const comms = [
    community(0, 0, -1, [2, 3], ['a', 'b', 'c']),
    community(1, 0, -1, [], ['d']),
    community(2, 1, 0, [4, 5], ['a', 'b']),
    community(3, 1, 0, [], ['c']),
    community(4, 2, 2, [], ['a']),
    community(5, 2, 2, [], ['b']),
  ]
  const reps = comms.map(report)
  const cut = (reports: CommunityReportRow[], level: number) =>
    reportsAtLevel(reports, comms, level).map((r) => r.community)

  it('cuts the hierarchy at L: the deepest report on each branch, no parent next to its children', () => {
    expect(cut(reps, 0)).toEqual([0, 1])
    expect(cut(reps, 1)).toEqual([1, 2, 3])
    expect(cut(reps, 2)).toEqual([1, 3, 4, 5])
  })

  it('keeps a parent whose children have no report', () => {
    expect(
      cut(
        reps.filter((r) => r.community < 2),
        2,
      ),
    ).toEqual([0, 1])
  })

  it('keeps a parent when only some children have reports, so every entity is still covered once', () => {
    // 5 has no report: b is covered by its parent 2, a by 4.
    const partial = reps.filter((r) => r.community !== 5)
    expect(cut(partial, 2)).toEqual([1, 2, 3, 4])
    expect(Object.fromEntries(communityByEntity(reportsAtLevel(partial, comms, 2), comms))).toEqual({
      a: 4,
      b: 2,
      c: 3,
      d: 1,
    })
  })

  it('maps each entity to its one community in the cut; entities in none are absent, not dropped', () => {
    const selected = reportsAtLevel(
      reps.filter((r) => r.community !== 1),
      comms,
      2,
    )
    expect(Object.fromEntries(communityByEntity(selected, comms))).toEqual({ a: 4, b: 5, c: 3 })
  })
})

describeShared('reports at a level on the Dulce reference index', () => {
  it('drops parent 0 when its children 7, 8, 9 are in range', () => {
    const dir = sharedPath('reference', 'msgr-v3-dulce')
    const comms = decodeParquet(COMMUNITIES, readFileSync(`${dir}/communities.parquet`), 'communities')
    const reps = decodeParquet(COMMUNITY_REPORTS, readFileSync(`${dir}/community_reports.parquet`), 'reports')
    expect(
      reportsAtLevel(reps, comms, 2)
        .map((r) => r.community)
        .sort((a, b) => a - b),
    ).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9])
    expect(
      reportsAtLevel(reps, comms, 0)
        .map((r) => r.community)
        .sort((a, b) => a - b),
    ).toEqual([0, 1, 2, 3, 4, 5, 6])
  })
})
