/** Pins community_reports.update_max_context_change as an inclusive bound: a change of exactly the bound keeps the report. */
import { describe, expect, it } from 'vitest'
import { staleDecision } from '../../../src/index/operations/community-reports/stale-reuse.js'

// Member rows (m…) only: the anchor's three rows all remain and one is added, a Jaccard distance of exactly 1/4.
const anchor = { basis: 'basis', rows: ['m-alpha', 'm-beta', 'm-gamma'] }
const grown = { basis: 'basis', rows: ['m-alpha', 'm-beta', 'm-gamma', 'm-delta'] }

describe('update_max_context_change at the bound', () => {
  it('keeps a report whose context changed by exactly the bound, and not by more', () => {
    expect(staleDecision(anchor, grown, new Set(), 0.25)).toEqual({ keep: true, change: 0.25 })
    expect(staleDecision(anchor, grown, new Set(), 0.2499)).toEqual({
      keep: false,
      change: 0.25,
      reason: 'changed too much',
    })
  })

  it('with a bound of 0 keeps only an unchanged context', () => {
    expect(staleDecision(anchor, anchor, new Set(), 0)).toEqual({ keep: true, change: 0 })
    expect(staleDecision(anchor, grown, new Set(), 0)).toMatchObject({ keep: false })
  })
})
