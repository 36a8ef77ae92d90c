/** The reports line of `graphrag update` counts the reports replayed by fingerprint among those reused. */
import { describe, expect, it } from 'vitest'
import { describeReports } from '../../src/cli/update-run.js'
import type { RunStatsFile } from '../../src/index/run/run-stats.js'

describe('describeReports with replayed reports', () => {
  it('adds the reports of an unchanged context to the reused, apart from the renumbered', () => {
    const update = { summary: { reports: 30, reports_regenerated: 2, reports_reused: 28 } }
    const writer = {
      summary: { reports_requested: 2, reused_unchanged: 25, reused_renumbered: 3 },
      llm: { 'gpt-4.1': { calls: 2, cacheHits: 0 } },
    }
    const workflows = {
      update_community_reports: update,
      create_community_reports: writer,
    } as unknown as RunStatsFile['workflows']
    expect(describeReports(workflows)).toBe(
      "Reports: 2 of 30 asked of the model (2 model call(s) made, 0 answered by earlier replies), 28 reused (25 of an unchanged context, 3 with renumbered citations); 2 read differently from the previous index's",
    )
  })
})
