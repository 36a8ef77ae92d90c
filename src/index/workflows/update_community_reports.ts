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
  citedIds,
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

/**
 * Each report text with its citations written as identities (undefined where one cannot be mapped),
 * through `rows`' tables: only their rows the texts cite are mapped (at 100k entities a few hundred of
 * ~100,000 entities and more relationships), which gives each text the same identity form.
 */
async function identityTexts(
  ctx: WorkflowContext,
  rows: Rows,
  texts: readonly string[],
): Promise<Array<string | undefined>> {
  const cited = citedIds(texts)
  const pick = <R extends { human_readable_id: number }>(list: R[], table: keyof typeof cited): R[] =>
    list.filter((r) => cited[table].has(r.human_readable_id))
  const graph = tableIdentityMaps(
    pick(await rows(ctx, ENTITY_IDS), 'Entities'),
    pick(await rows(ctx, RELATIONSHIP_IDS), 'Relationships'),
    pick(await rows(ctx, CLAIM_IDS), 'Claims'),
  )
  // Graph reports cite entities, relationships and claims; the fast method's text reports, text units.
  const maps = mergeMaps(graph, textUnitIdentityMaps(pick(await rows(ctx, UNIT_IDS), 'Sources')))
  return texts.map((text) => identityText(text, maps))
}

/**
 * A report text up to its first citation. identityText rewrites only what is inside citations, so
 * two texts with the same identity form have the same head: a renumbered report's predecessor is
 * among the previous reports whose head is its own.
 */
function citationHead(text: string): string {
  const at = text.indexOf('[Data:')
  return at < 0 ? text : text.slice(0, at)
}

/** How many of the reports not found as they were are not a previous report renumbered either. */
async function countRegenerated(ctx: WorkflowContext, before: string[], unmatched: string[]): Promise<number> {
  const heads = new Set(unmatched.map(citationHead))
  const candidates = before.filter((text) => heads.has(citationHead(text)))
  if (candidates.length === 0) return unmatched.length
  const renumbered = new Set(
    (await identityTexts(ctx, previousRows, candidates)).filter((identity) => identity !== undefined),
  )
  const identities = await identityTexts(ctx, currentRows, unmatched)
  return identities.filter((identity) => identity === undefined || !renumbered.has(identity)).length
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
    // ~28,000) and the previous ones they may renumber: with none, the tables behind the maps are not read.
    const unmatched = reports.filter((text) => !exact.has(text))
    const regenerated = unmatched.length === 0 ? 0 : await countRegenerated(ctx, before, unmatched)
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
