/** The common end of both report workflows: failures recorded and held to the budget, reports finalised and written. */
import { COMMUNITY_REPORTS } from '../../model/community-reports.js'
import type { ReportRunResult } from '../operations/community-reports/request.js'
import { finalizeReports, type ReportedCommunity } from '../operations/community-reports/render.js'
import { enforceFailureBudget } from '../operations/failure-budget.js'
import type { WorkflowContext } from '../workflow.js'

/** Returns the number of report rows written. */
export async function writeReports(
  ctx: WorkflowContext,
  workflow: string,
  result: ReportRunResult,
  communities: readonly ReportedCommunity[],
): Promise<number> {
  const failures = result.failures.map((f) => ({ item: `community ${f.community}`, reason: f.reason, error: f.error }))
  for (const f of failures) ctx.stats.failure(f.item, f.reason)
  enforceFailureBudget(workflow, {
    what: 'community reports',
    attempted: result.attempted,
    failures,
    maxFailedFraction: ctx.settings.community_reports.max_failed_fraction,
    setting: 'community_reports.max_failed_fraction',
  })
  const rows = finalizeReports(result.drafts, communities)
  await ctx.tables.write(COMMUNITY_REPORTS, rows)
  return rows.length
}
