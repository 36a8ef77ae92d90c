/**
 * Which communities the fast method's model writes a report for (community_reports.text_units_per_report):
 * one report per that many text units of the index, given to the communities spanning the most text
 * units (coarser level first on a tie, then community number). Those are the summaries global search
 * starts from and where an extractive report says least; every other community keeps its extractive
 * report, so the index's model tokens grow with the corpus at a fixed, small rate per text unit.
 */
import type { CommunityRow } from '../../model/communities.js'

/** The communities to send to the model; every community when `unitsPerReport` is 0. */
export function reportedCommunities(
  communities: readonly Pick<CommunityRow, 'community' | 'level' | 'text_unit_ids'>[],
  textUnitCount: number,
  unitsPerReport: number,
): ReadonlySet<number> {
  if (unitsPerReport === 0) return new Set(communities.map((c) => c.community))
  const wanted = Math.ceil(textUnitCount / unitsPerReport)
  const spans = communities.map((c) => ({ c, units: new Set(c.text_unit_ids).size }))
  spans.sort((a, b) => b.units - a.units || a.c.level - b.c.level || a.c.community - b.c.community)
  return new Set(spans.slice(0, wanted).map((s) => s.c.community))
}
