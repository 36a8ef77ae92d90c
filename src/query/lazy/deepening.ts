/**
 * Iterative deepening over the community hierarchy, for one sub-question. Communities of a level are
 * visited best first; a visit tests the community's best untested units in one batch. A community
 * that yields relevant text is dug into: its sub-communities next (ranked the same way), or, for a
 * community without any, its next batch. A level (a branch) stops after `maxMisses` consecutive
 * visits without relevant text, and everything stops when the budget is spent.
 */
import type { RelevanceBudget } from './budget.js'
import { bestUntested, rankCommunities, type LazyCommunity } from './ranking.js'

export interface DeepeningOptions {
  /** Units tested per visit. */
  batchSize: number
  /** z: consecutive visits without relevant text that end a branch. */
  maxMisses: number
}

/** One visit: the community, its depth in the walk, the units tested and those judged relevant. */
interface Visit {
  community: number
  level: number
  depth: number
  tested: string[]
  relevant: string[]
}

/** Judges a batch of unit ids; returns the relevant ones (any order, unknown ids ignored). */
export type RelevanceTest = (unitIds: readonly string[]) => Promise<readonly string[]>

export interface Deepening {
  visits: Visit[]
  /** Relevant unit ids in the order they were found. */
  relevant: string[]
  /** Why the walk ended: the budget was spent, or every branch stopped (or ran out of ranked units). */
  stop: 'budget' | 'exhausted'
}

export async function deepen(
  communities: readonly LazyCommunity[],
  unitRank: ReadonlyMap<string, number>,
  budget: RelevanceBudget,
  options: DeepeningOptions,
  test: RelevanceTest,
): Promise<Deepening> {
  const byNumber = new Map(communities.map((c) => [c.community, c]))
  const known = new Set(byNumber.keys())
  const isChild = new Set(communities.flatMap((c) => c.children))
  const roots = communities.filter((c) => !isChild.has(c.community))
  const tested = new Set<string>()
  const visits: Visit[] = []

  /** Tests the community's next batch; undefined when it has nothing left to test or the budget is spent. */
  const visit = async (community: LazyCommunity, depth: number): Promise<Visit | undefined> => {
    const units = bestUntested(community, unitRank, tested, options.batchSize)
    const granted = budget.take(units.length)
    if (granted === 0) return undefined
    const batch = units.slice(0, granted)
    for (const id of batch) tested.add(id)
    const judged = new Set(await test(batch))
    const relevant = batch.filter((id) => judged.has(id))
    const v = { community: community.community, level: community.level, depth, tested: batch, relevant }
    visits.push(v)
    return v
  }

  const walkLevel = async (level: readonly LazyCommunity[], depth: number): Promise<void> => {
    let misses = 0
    for (const community of rankCommunities(level, unitRank)) {
      if (budget.remaining === 0) return
      const v = await visit(community, depth)
      if (v === undefined) continue
      if (v.relevant.length === 0) {
        if (++misses >= options.maxMisses) return
        continue
      }
      misses = 0
      const children = community.children.filter((n) => known.has(n)).map((n) => byNumber.get(n)!)
      if (children.length > 0) await walkLevel(children, depth + 1)
      else await digLeaf(community, depth)
    }
  }

  /** A community without sub-communities that yielded relevant text: its next batches while they still do. */
  const digLeaf = async (community: LazyCommunity, depth: number): Promise<void> => {
    for (;;) {
      const v = await visit(community, depth)
      if (v === undefined || v.relevant.length === 0) return
    }
  }

  await walkLevel(roots, 0)
  return {
    visits,
    relevant: visits.flatMap((v) => v.relevant),
    stop: budget.remaining === 0 ? 'budget' : 'exhausted',
  }
}
