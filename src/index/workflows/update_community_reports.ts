/**
 * Workflow update_community_reports: records how many reports the update regenerated and how many it
 * reused: a report is reused when its full_content_json is among the previous index's, or equals one
 * of them once citations are written as identities (a report kept across renumbered ids carries the
 * earlier reply's rating and text, which a regenerated one would not).
 */
import { COMMUNITY_REPORTS } from '../../model/community-reports.js'
import { COVARIATES } from '../../model/covariates.js'
import { ENTITIES } from '../../model/entities.js'
import { RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns } from '../../model/schema.js'
import { TEXT_UNITS } from '../../model/text-units.js'
import {
  identityText,
  mergeMaps,
  tableIdentityMaps,
  textUnitIdentityMaps,
} from '../operations/community-reports/stable-reuse.js'
import { defineWorkflow, type WorkflowContext } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

type Rows = typeof previousRows

// Only what the identity maps and the comparison use: descriptions and the reports' other columns are not decoded.
const ENTITY_IDS = pickColumns(ENTITIES, ['human_readable_id', 'title'])
const RELATIONSHIP_IDS = pickColumns(RELATIONSHIPS, ['human_readable_id', 'source', 'target'])
const CLAIM_IDS = pickColumns(COVARIATES, ['human_readable_id', 'id'])
const UNIT_IDS = pickColumns(TEXT_UNITS, ['id', 'human_readable_id'])
const REPORT_CONTENT = pickColumns(COMMUNITY_REPORTS, ['full_content_json'])

/** Each report text with its citations written as identities (undefined where one cannot be mapped), through `rows`' tables. */
async function identityTexts(
  ctx: WorkflowContext,
  rows: Rows,
  texts: readonly string[],
): Promise<Array<string | undefined>> {
  const graph = tableIdentityMaps(
    await rows(ctx, ENTITY_IDS),
    await rows(ctx, RELATIONSHIP_IDS),
    await rows(ctx, CLAIM_IDS),
  )
  // Graph reports cite entities, relationships and claims; the fast method's text reports, text units.
  const maps = mergeMaps(graph, textUnitIdentityMaps(await rows(ctx, UNIT_IDS)))
  return texts.map((text) => identityText(text, maps))
}

const reportTexts = async (ctx: WorkflowContext, rows: Rows): Promise<string[]> =>
  (await rows(ctx, REPORT_CONTENT)).map((r) => r.full_content_json)

export const updateCommunityReports = defineWorkflow({
  name: 'update_community_reports',
  reads: [COMMUNITY_REPORTS.name, ENTITIES.name, RELATIONSHIPS.name, COVARIATES.name, TEXT_UNITS.name],
  writes: [],
  async run(ctx) {
    const before = await reportTexts(ctx, previousRows)
    const reports = await reportTexts(ctx, currentRows)
    const exact = new Set(before)
    // Identities matter only for the reports not found as they were (at 100k entities a few dozen of
    // ~28,000): the others are not mapped, and with none the tables behind the maps are not read.
    const unmatched = reports.filter((text) => !exact.has(text))
    let regenerated = 0
    if (unmatched.length > 0) {
      const renumbered = new Set(
        (await identityTexts(ctx, previousRows, before)).filter((identity) => identity !== undefined),
      )
      const identities = await identityTexts(ctx, currentRows, unmatched)
      regenerated = identities.filter((identity) => identity === undefined || !renumbered.has(identity)).length
    }
    return {
      summary: {
        reports: reports.length,
        reports_regenerated: regenerated,
        reports_reused: reports.length - regenerated,
        regenerated_share: reports.length === 0 ? 0 : Number((regenerated / reports.length).toFixed(3)),
      },
    }
  },
})
