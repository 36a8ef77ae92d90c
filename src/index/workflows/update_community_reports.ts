/**
 * Workflow update_community_reports: records how many reports the update regenerated (their text is
 * not among the previous index's reports) and how many it reused because their context was unchanged.
 */
import { COMMUNITY_REPORTS } from '../../model/community-reports.js'
import { NO_MODELS, type Workflow } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

export const updateCommunityReports: Workflow = {
  name: 'update_community_reports',
  reads: [COMMUNITY_REPORTS.name],
  writes: [],
  fingerprint: () => ({}),
  models: () => NO_MODELS,
  prompts: () => [],
  async run(ctx) {
    const before = new Set((await previousRows(ctx, COMMUNITY_REPORTS)).map((r) => r.full_content))
    const reports = await currentRows(ctx, COMMUNITY_REPORTS)
    const regenerated = reports.filter((r) => !before.has(r.full_content)).length
    return {
      summary: {
        reports: reports.length,
        reports_regenerated: regenerated,
        reports_reused: reports.length - regenerated,
        regenerated_share: reports.length === 0 ? 0 : Number((regenerated / reports.length).toFixed(3)),
      },
    }
  },
}
