/** The line `graphrag update` prints about the reports, from the report workflows' summaries (graph or text-unit reports). */
import { describe, expect, it } from 'vitest'
import { describeReports } from '../../src/cli/update-run.js'
import type { RunStatsFile } from '../../src/index/run/run-stats.js'

const entry = (summary: Record<string, number | string>) =>
  ({ summary }) as unknown as RunStatsFile['workflows'][string]
const update = entry({ reports: 12, reports_regenerated: 3, reports_reused: 9 })

describe('describeReports', () => {
  it('says how many reports were written again and kept, and how many of those with a changed context', () => {
    const kept = { reused_renumbered: 7, kept_within_change: 2, max_kept_change: 0.083 }
    expect(describeReports({ update_community_reports: update, create_community_reports: entry(kept) })).toBe(
      'Reports: 3 of 12 written again, 9 kept (2 of them with a context changed by at most 0.083)',
    )
    // The fast method's text-unit reports say the same.
    expect(
      describeReports({
        update_community_reports: update,
        create_community_reports_text: entry({ writer: 'llm', ...kept }),
      }),
    ).toBe('Reports: 3 of 12 written again, 9 kept (2 of them with a context changed by at most 0.083)')
    expect(describeReports({ update_community_reports: update })).toBe('Reports: 3 of 12 written again, 9 kept')
    expect(describeReports({})).toBeUndefined()
  })
})
