/**
 * Community membership per level, and the community an entity is drawn with at a chosen level:
 * hierarchical Leiden only splits some communities further, so an entity missing at level N keeps
 * the community it had at the deepest level above N (as it does in the reference's hierarchy).
 */
import { ExportError } from '../errors.js'
import type { CommunityReportRow, CommunityRow } from '../model/index.js'

export interface Membership {
  /** Levels present in the communities table, ascending. */
  readonly levels: readonly number[]
  /** The entity's community at exactly this level, or -1. */
  at(entityId: string, level: number): number
  /** The entity's community at this level, else at the deepest level above it, else -1. */
  effective(entityId: string, level: number): number
  /** Community rows by community id. */
  readonly communities: ReadonlyMap<number, CommunityRow>
  /** Report rows by community id (communities without a report are absent). */
  readonly reports: ReadonlyMap<number, CommunityReportRow>
}

export function buildMembership(
  communities: readonly CommunityRow[],
  reports: readonly CommunityReportRow[],
): Membership {
  const byEntity = new Map<string, Map<number, number>>()
  for (const row of communities) {
    for (const entityId of row.entity_ids) {
      let levels = byEntity.get(entityId)
      if (levels === undefined) byEntity.set(entityId, (levels = new Map()))
      levels.set(row.level, row.community)
    }
  }
  const levels = [...new Set(communities.map((c) => c.level))].sort((a, b) => a - b)
  const at = (entityId: string, level: number): number => byEntity.get(entityId)?.get(level) ?? -1
  return {
    levels,
    at,
    effective(entityId, level) {
      for (let l = level; l >= 0; l--) {
        const community = at(entityId, l)
        if (community !== -1) return community
      }
      return -1
    },
    communities: new Map(communities.map((c) => [c.community, c])),
    reports: new Map(reports.map((r) => [r.community, r])),
  }
}

/** The level to colour by: the one asked for (which must exist), else the top level 0. */
export function chooseLevel(membership: Membership, requested: number | undefined): number {
  if (requested === undefined) return membership.levels[0] ?? 0
  if (membership.levels.length === 0) {
    throw new ExportError(
      `--level ${requested}: the index has no communities (run the create_communities workflow first)`,
    )
  }
  if (!membership.levels.includes(requested)) {
    throw new ExportError(`--level ${requested}: the index has community levels ${membership.levels.join(', ')}`)
  }
  return requested
}
