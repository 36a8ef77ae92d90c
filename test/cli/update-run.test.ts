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

  it('counts the reports asked of the model and the calls made apart from those that read differently', () => {
    // 25 reports asked again (2 answered by the cache), all word for word as before: "0 written again" hid 23 calls.
    const same = entry({ reports: 29, reports_regenerated: 0, reports_reused: 29 })
    const writer = {
      summary: { reports_requested: 25, reused_renumbered: 3, kept_within_change: 1, max_kept_change: 0.05 },
      llm: { 'gpt-4.1': { calls: 25, cacheHits: 2 } },
    } as unknown as RunStatsFile['workflows'][string]
    expect(describeReports({ update_community_reports: same, create_community_reports: writer })).toBe(
      "Reports: 25 of 29 asked of the model (23 model call(s) made, 2 answered by earlier replies), 4 reused (3 with renumbered citations, 1 kept with a context changed by at most 0.05); 0 read differently from the previous index's",
    )
  })
})
