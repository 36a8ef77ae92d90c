/**
 * storedReportLookup (stale-reuse.ts): the previous reports in stored form one community at a time,
 * as storedReports gives them all, encoded only when asked for.
 */
import { describe, expect, it } from 'vitest'
import { identityMaps } from '../../../src/index/operations/community-reports/stable-reuse.js'
import { storedReportLookup, storedReports } from '../../../src/index/operations/community-reports/stale-reuse.js'
import type { CommunityReportRow } from '../../../src/model/index.js'

const maps = identityMaps({
  Entities: ['ALPHA', 'BETA', 'GAMMA'].map((identity, i) => ({ human_readable_id: i, identity })),
  Relationships: [{ human_readable_id: 0, identity: 'ALPHA\u0000BETA' }],
  Claims: [],
})

const report = (community: number, summary: string): CommunityReportRow =>
  ({
    community,
    title: `Community ${community}`,
    summary,
    findings: [{ summary: 'Trade', explanation: 'They trade [Data: Relationships (0)].' }],
    rank: 4.5,
    rating_explanation: 'Central.',
  }) as unknown as CommunityReportRow

describe('storedReportLookup', () => {
  const rows = [
    report(0, 'Alpha and Beta [Data: Entities (0, 1)].'),
    report(1, 'Gamma [Data: Entities (2)].'),
    report(2, 'A made-up id [Data: Entities (99)].'),
  ]

  it("gives each community's report as storedReports does, and nothing for a report it cannot store or no report", () => {
    const all = storedReports(rows, maps)
    const lookup = storedReportLookup(rows, maps)
    expect(lookup(1)).toEqual(all.get(1))
    expect(lookup(0)).toEqual(all.get(0))
    expect(lookup(1)).toEqual(all.get(1))
    expect(lookup(0)?.refs).toEqual([
      ['Entities', 'ALPHA'],
      ['Entities', 'BETA'],
      ['Relationships', 'ALPHA\u0000BETA'],
    ])
    expect(lookup(2)).toBeUndefined()
    expect(lookup(7)).toBeUndefined()
  })
})
