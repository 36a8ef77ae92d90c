/**
 * The common start of both report workflows: where reports are recorded by canonical context (beside
 * the model's replies, so model_replies carries them into an update), this generation's id ↔ identity
 * maps and, in an update with community_reports.update_max_context_change > 0, what keeping a changed
 * community's previous report needs (stale-reuse.ts), and the summary figures of that reuse.
 */
import { COMMUNITIES } from '../../model/communities.js'
import { COMMUNITY_REPORTS } from '../../model/community-reports.js'
import { ENTITIES, type EntityRow } from '../../model/entities.js'
import { pickColumns } from '../../model/schema.js'
import type { StableReports, StaleReuse } from '../operations/community-reports/report-reuse.js'
import type { ReportRunResult } from '../operations/community-reports/request.js'
import type { IdentityMaps } from '../operations/community-reports/stable-reuse.js'
import { type Membership, predecessorOf, storedReportLookup } from '../operations/community-reports/stale-reuse.js'
import type { WorkflowContext } from '../workflow.js'
import { previousRows } from './update-previous.js'

const STABLE_PARTITION = 'community_report_contexts'

// What the previous generation is read for: members by title (predecessors), ids and lost text units
// (identity maps, lost content), reports' content (their stored form). Report texts are not decoded.
const PREVIOUS_ENTITIES = pickColumns(ENTITIES, ['id', 'human_readable_id', 'title', 'text_unit_ids'])
const PREVIOUS_COMMUNITIES = pickColumns(COMMUNITIES, ['community', 'level', 'entity_ids'])
const PREVIOUS_REPORTS = pickColumns(COMMUNITY_REPORTS, [
  'community',
  'title',
  'summary',
  'findings',
  'rank',
  'rating_explanation',
])
/** The previous entities as stableReports reads them. */
type PreviousEntity = Pick<EntityRow, 'id' | 'human_readable_id' | 'title' | 'text_unit_ids'>

/**
 * What the workflow knows of the previous generation: its id maps, and the rows that lost content
 * since; given the previous entities, read once here (a large graph's entities take seconds to decode).
 */
export type PreviousBasis = (
  previousEntities: readonly PreviousEntity[],
) => Promise<{ maps: IdentityMaps; losing: Set<string> }>

export async function stableReports(
  ctx: WorkflowContext,
  maps: IdentityMaps,
  current: Membership,
  previousBasis: PreviousBasis,
): Promise<StableReports> {
  const replies = ctx.cache.child(ctx.settings.community_reports.model_instance_name)
  const store = replies.child(STABLE_PARTITION)
  const modelId = ctx.settings.community_reports.completion_model_id
  const tokenizer = (modelId === null ? undefined : ctx.settings.completion_models[modelId]?.encoding_model) ?? null
  return { store, replies, maps, stale: await staleReuse(ctx, current, previousBasis), tokenizer }
}

async function staleReuse(
  ctx: WorkflowContext,
  current: Membership,
  previousBasis: PreviousBasis,
): Promise<StaleReuse | undefined> {
  const maxChange = ctx.settings.community_reports.update_max_context_change
  const previous = ctx.previousTables
  if (previous === undefined || maxChange <= 0 || !(await previous.has(COMMUNITY_REPORTS.name))) return undefined
  const before = {
    entities: await previousRows(ctx, PREVIOUS_ENTITIES),
    communities: await previousRows(ctx, PREVIOUS_COMMUNITIES),
  }
  const { maps, losing } = await previousBasis(before.entities)
  const storedOf = storedReportLookup(await previous.read(PREVIOUS_REPORTS), maps)
  const predecessor = predecessorOf(before, current)
  return {
    maxChange,
    previous: (community) => {
      const from = predecessor(community)
      const stored = from === undefined ? undefined : storedOf(from)
      return stored === undefined ? undefined : { stored, community: from! }
    },
    losing,
  }
}

/**
 * The report workflows' summary of reuse: reports asked of the model (each a call unless the cache or
 * the previous index's replies answer it), renumbered reports, and in an update those kept within the bound.
 */
export function reuseSummary(result: ReportRunResult, stable: StableReports): Record<string, number> {
  return {
    reports_requested: result.attempted - (result.reused ?? 0) - (result.keptStale ?? 0) - (result.unchanged ?? 0),
    reused_renumbered: result.reused ?? 0,
    // Replies replayed by fingerprint (unchanged-reports.ts): counted apart from the requests.
    ...(result.unchanged === undefined ? {} : { reused_unchanged: result.unchanged }),
    ...(stable.stale === undefined
      ? {}
      : {
          kept_within_change: result.keptStale ?? 0,
          max_kept_change: Number((result.maxStaleChange ?? 0).toFixed(3)),
        }),
  }
}
