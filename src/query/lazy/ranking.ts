/**
 * Ranking of lazy search: text units per sub-question (vector similarity fused with BM25 by
 * reciprocal rank fusion, as hybrid search fuses them), and communities by the ranks of their best
 * text units, best first. Ties are broken by ids, never by arrival order.
 */
import { reciprocalRankFusion, type RankedList } from '../hybrid/fusion.js'

/** A community of the hierarchy as lazy search walks it. */
export interface LazyCommunity {
  community: number
  level: number
  title: string
  /** Community numbers of its sub-communities. */
  children: readonly number[]
  /** Ids of the text units it holds. */
  unitIds: readonly string[]
}

/** Unit id → rank (0 = best) from the fused lists; units no list holds are absent. */
export function rankUnits(lists: readonly RankedList[], rrfK: number): Map<string, number> {
  return new Map(reciprocalRankFusion(lists, rrfK).map((c, rank) => [c.id, rank]))
}

/** The ranks of a community's ranked units, best first. */
function unitRanks(community: LazyCommunity, unitRank: ReadonlyMap<string, number>): number[] {
  const ranks: number[] = []
  for (const id of community.unitIds) {
    const rank = unitRank.get(id)
    if (rank !== undefined) ranks.push(rank)
  }
  return ranks.sort((a, b) => a - b)
}

/** Best ranks compared in order: the better best unit wins, then the better second, …; more ranked units win a tie. */
function compareRanks(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!
  return b.length - a.length
}

/**
 * The communities that hold at least one ranked unit, best first: by the rank of their best unit,
 * then their second best, …, then community number.
 */
export function rankCommunities(
  communities: readonly LazyCommunity[],
  unitRank: ReadonlyMap<string, number>,
): LazyCommunity[] {
  return communities
    .map((community) => ({ community, ranks: unitRanks(community, unitRank) }))
    .filter((c) => c.ranks.length > 0)
    .sort((a, b) => compareRanks(a.ranks, b.ranks) || a.community.community - b.community.community)
    .map((c) => c.community)
}

/** Up to `limit` of the community's ranked units not tested yet, best rank first. */
export function bestUntested(
  community: LazyCommunity,
  unitRank: ReadonlyMap<string, number>,
  tested: ReadonlySet<string>,
  limit: number,
): string[] {
  return community.unitIds
    .filter((id) => unitRank.has(id) && !tested.has(id))
    .sort((a, b) => unitRank.get(a)! - unitRank.get(b)! || (a < b ? -1 : 1))
    .slice(0, limit)
}
