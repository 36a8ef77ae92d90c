/**
 * Communities across an update: the previous index's clustering as Leiden's starting partition, and
 * community numbers kept for every community whose members did not change, so its id, title and
 * report carry over; the other communities take the lowest numbers left, in clustering order.
 */
import type { CommunityRow } from '../../model/communities.js'
import type { EntityRow } from '../../model/entities.js'
import type { RelationshipRow } from '../../model/relationships.js'
import { compareCodePoints } from '../../text/names.js'
import { lastRowOfEachPair } from './cluster-edges.js'
import { type EdgeColumns, edgeColumns } from './relationship-columns.js'

type PreviousCommunityRow = Pick<CommunityRow, 'community' | 'level' | 'entity_ids'>

export interface PreviousCommunities {
  /** Per level, entity title → that level's previous community number (Leiden's starting partition). */
  readonly startingCommunities: Map<string, number>[]
  /** Titles of each previous level-0 community the change did not reach (see `untouchedCommunities`). */
  readonly keepTogether: string[][]
  /** Level and sorted entity ids (membersKey) → the previous community's number and entity ids in its order. */
  readonly byMembers: ReadonlyMap<string, { readonly community: number; readonly entityIds: readonly string[] }>
}

type Edge = Pick<RelationshipRow, 'source' | 'target' | 'weight'>
/** Relationship rows, or the same kept as columns. */
type Edges = ReadonlyArray<Edge> | EdgeColumns

/**
 * The previous index's clustering; entity ids are read as titles through its entities table.
 * `relationships` (previous and current) tell which communities the change did not reach.
 */
export function previousCommunities(
  communities: ReadonlyArray<PreviousCommunityRow>,
  entities: ReadonlyArray<Pick<EntityRow, 'id' | 'title'>>,
  relationships?: { previous: Edges; current: Edges },
): PreviousCommunities {
  const titleOf = new Map(entities.map((e) => [e.id, e.title]))
  const startingCommunities: Map<string, number>[] = []
  const byMembers = new Map<string, { community: number; entityIds: readonly string[] }>()
  for (const c of communities) {
    const ids = c.entity_ids ?? []
    byMembers.set(membersKey(c.level, ids), { community: c.community, entityIds: ids })
    while (startingCommunities.length <= c.level) startingCommunities.push(new Map())
    const level = startingCommunities[c.level]!
    for (const id of ids) {
      const title = titleOf.get(id)
      if (title !== undefined) level.set(title, c.community)
    }
  }
  const touched = relationships === undefined ? undefined : touchedTitles(relationships.previous, relationships.current)
  const keepTogether: string[][] = []
  for (const c of [...communities].sort((a, b) => a.community - b.community)) {
    if (c.level !== 0 || touched === undefined) continue
    const titles = (c.entity_ids ?? []).map((id) => titleOf.get(id))
    if (titles.every((t) => t !== undefined && !touched.has(t))) keepTogether.push(titles as string[])
  }
  return { startingCommunities, keepTogether, byMembers }
}

/**
 * Entities whose place in the clustered graph changed: an endpoint of a pair added, removed or
 * re-weighted (pairs read as clustering reads them: unordered, last row wins, weight ≤ 0 left out).
 * Both generations' pairs are walked in (smaller, larger) name order side by side: no key per pair.
 */
function touchedTitles(previous: Edges, current: Edges): Set<string> {
  const [before, after] = [clusteredPairs(asColumns(previous)), clusteredPairs(asColumns(current))]
  const touched = new Set<string>()
  const touch = (pairs: ClusteredPairs, j: number) =>
    touched.add(pairs.names[pairs.lo[j]]).add(pairs.names[pairs.hi[j]])
  let i = 0
  let j = 0
  while (i < before.lo.length || j < after.lo.length) {
    const order = i >= before.lo.length ? 1 : j >= after.lo.length ? -1 : comparePairs(before, i, after, j)
    if (order < 0) touch(before, i++)
    else if (order > 0) touch(after, j++)
    else {
      if (before.weight[i] !== after.weight[j]) touch(before, i)
      i++
      j++
    }
  }
  return touched
}

function asColumns(edges: Edges): EdgeColumns {
  return Array.isArray(edges) ? edgeColumns(edges) : (edges as EdgeColumns)
}

/** Each clustered pair once, in (smaller, larger) rank order, with the weight of its last row. */
interface ClusteredPairs {
  readonly names: readonly string[]
  readonly lo: Int32Array
  readonly hi: Int32Array
  readonly weight: Float64Array
}

function clusteredPairs(edges: EdgeColumns): ClusteredPairs {
  const { source, target, weight, names } = edges
  const rows = lastRowOfEachPair(edges).byPair.filter((i) => !(weight[i] <= 0))
  return {
    names,
    lo: rows.map((i) => Math.min(source[i], target[i])),
    hi: rows.map((i) => Math.max(source[i], target[i])),
    weight: Float64Array.from(rows, (i) => weight[i]),
  }
}

/** The two generations' pairs compared by their names (their ranks are each in code-point order). */
function comparePairs(a: ClusteredPairs, i: number, b: ClusteredPairs, j: number): number {
  return compareCodePoints(a.names[a.lo[i]], b.names[b.lo[j]]) || compareCodePoints(a.names[a.hi[i]], b.names[b.hi[j]])
}

/** A community's identity for "kept its members": its level and its entity ids as a set. */
export function membersKey(level: number, entityIds: ReadonlyArray<string>): string {
  return `${level}\u0000${[...entityIds].sort().join('\u0000')}`
}

interface NumberedCommunity {
  readonly level: number
  readonly cluster: number
  readonly entityIds: ReadonlyArray<string>
}

/**
 * Clustering number → community number. A community whose level and members equal a previous
 * community's takes its number (and `keptOrder` gives that community's entity ids in their previous
 * order: a node's place in the clustering's order can move when edges elsewhere change, and the
 * community id hashes the ids in order); the rest, in the given order (level, then clustering
 * number), take the lowest numbers no kept community holds. Numbers stay unique across levels.
 */
export function stableNumbers(
  communities: ReadonlyArray<NumberedCommunity>,
  previous: PreviousCommunities,
): { numbers: Map<number, number>; keptOrder: Map<number, readonly string[]> } {
  const numbers = new Map<number, number>()
  const keptOrder = new Map<number, readonly string[]>()
  const taken = new Set<number>()
  for (const c of communities) {
    const match = previous.byMembers.get(membersKey(c.level, c.entityIds))
    if (match === undefined || taken.has(match.community)) continue
    numbers.set(c.cluster, match.community)
    keptOrder.set(c.cluster, match.entityIds)
    taken.add(match.community)
  }
  let free = 0
  for (const c of communities) {
    if (numbers.has(c.cluster)) continue
    while (taken.has(free)) free++
    numbers.set(c.cluster, free)
    taken.add(free)
  }
  return { numbers, keptOrder }
}
