import { describe, expect, it } from 'vitest'
import { reportedCommunities } from '../../../src/index/operations/text-report-selection.js'

const c = (community: number, level: number, units: string[]) => ({ community, level, text_unit_ids: units })

describe('reportedCommunities (the fast method’s model-written reports)', () => {
  const communities = [
    c(0, 0, ['a', 'b', 'c', 'd', 'e']),
    c(1, 0, ['f', 'g']),
    c(2, 1, ['a', 'b', 'c']),
    c(3, 1, ['d', 'e', 'd', 'e']), // duplicates count once: 2 units
    c(4, 2, ['a', 'b', 'c']),
    c(5, 1, ['f']),
  ]

  it('gives one report per text_units_per_report units to the communities spanning most units', () => {
    // 7 units, one per 4: 2 reports, the five-unit community and the coarser of the two three-unit ones.
    expect([...reportedCommunities(communities, 7, 4)].sort()).toEqual([0, 2])
    expect([...reportedCommunities(communities, 7, 2)].sort()).toEqual([0, 1, 2, 4])
    // Ties on units go to the coarser level, then the lower number: 1 (level 0) before 3 (level 1).
    expect([...reportedCommunities(communities, 7, 1)].sort()).toEqual([0, 1, 2, 3, 4, 5])
    expect([...reportedCommunities(communities, 1, 4)]).toEqual([0])
  })

  it('0 reports every community (Microsoft’s fast method)', () => {
    expect(reportedCommunities(communities, 7, 0).size).toBe(6)
  })
})
