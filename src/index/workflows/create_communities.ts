/**
 * Workflow create_communities: clusters the relationship graph and writes the communities table. In
 * an update run it starts from the previous index's communities and keeps the numbers of those whose
 * members did not change (see operations/community-continuity.ts).
 */
import type { Settings } from '../../config/schema.js'
import { COMMUNITIES } from '../../model/communities.js'
import { ENTITIES } from '../../model/entities.js'
import { RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns } from '../../model/schema.js'
import type { ClusterSeeding } from '../operations/cluster-graph.js'
import { previousCommunities, type PreviousCommunities } from '../operations/community-continuity.js'
import { createCommunitiesFromColumns } from '../operations/create-communities.js'
import { type EdgeColumns, edgeColumnsOfTable, relationshipColumnsOfTable } from '../operations/relationship-columns.js'
import { readColumns } from '../../storage/table-store.js'
import { defineWorkflow, type WorkflowContext } from '../workflow.js'
import { previousRows } from './update-previous.js'

/** The columns each step reads: the lists of the previous communities and the descriptions are not needed. */
const ENTITY_TITLES = pickColumns(ENTITIES, ['id', 'title'])
const CLUSTERED_RELATIONSHIPS = pickColumns(RELATIONSHIPS, ['id', 'source', 'target', 'weight', 'text_unit_ids'])
const PREVIOUS_EDGES = pickColumns(RELATIONSHIPS, ['source', 'target', 'weight'])
const PREVIOUS_MEMBERS = pickColumns(COMMUNITIES, ['community', 'level', 'entity_ids'])

/** The previous index's clustering, or undefined outside update runs (and when it has no communities). */
async function previousClustering(
  ctx: WorkflowContext,
  relationships: EdgeColumns,
): Promise<PreviousCommunities | undefined> {
  const communities = await previousRows(ctx, PREVIOUS_MEMBERS)
  if (communities.length === 0 || ctx.previousTables === undefined) return undefined
  // The previous generation's relationships as columns too (none: no edge was clustered before).
  const stored = ctx.previousTables
  const previous = (await stored.has(RELATIONSHIPS.name))
    ? edgeColumnsOfTable(await readColumns(stored, PREVIOUS_EDGES))
    : []
  return previousCommunities(communities, await previousRows(ctx, ENTITY_TITLES), { previous, current: relationships })
}

/**
 * Which clustering an update used (cluster-graph.ts ClusteringChoice) and the level-0 modularity of
 * each candidate tried.
 */
function continuitySummary(ctx: WorkflowContext, continuity: ClusterSeeding & { kept: number }) {
  const q = (x: number) => Number(x.toFixed(6))
  const { clustering, modularity, scratchModularity } = continuity
  const out: Record<string, number | string | boolean> = {
    clustering,
    started_from_previous: clustering !== 'from_scratch',
    modularity_level0: q(clustering === 'from_scratch' ? scratchModularity : (modularity[clustering] ?? 0)),
  }
  for (const [name, value] of Object.entries(modularity)) out[`modularity_level0_${name}`] = q(value)
  out.modularity_level0_from_scratch = q(scratchModularity)
  out.communities_kept_number = continuity.kept
  if (clustering !== 'kept') {
    const tried = Object.entries(modularity).filter(([name]) => name !== clustering)
    ctx.log.info(
      `create_communities: ${tried.map(([name, value]) => `${name} ${q(value)}`).join(', ')} more than 1% below level-0 modularity ${q(scratchModularity)} from scratch; using the ${clustering} clustering`,
    )
  }
  return out
}

export const createCommunities = defineWorkflow({
  name: 'create_communities',
  reads: [ENTITIES.name, RELATIONSHIPS.name],
  writes: [COMMUNITIES.name],
  fingerprint: (settings) => clusterFingerprint(settings.cluster_graph),
  async run(ctx) {
    const entities = await ctx.tables.read(ENTITY_TITLES)
    // Read as codes and typed arrays (no row object): clustering and the community rows work on them.
    const relationships = relationshipColumnsOfTable(await readColumns(ctx.tables, CLUSTERED_RELATIONSHIPS))
    // The reference stamps the UTC run date; it comes from the injected clock so tests can pin it.
    const period = ctx.clock.now().toISOString().slice(0, 10)
    const previous = await previousClustering(ctx, relationships)
    const { rows, nonPositiveEdges, continuity, sizeFloor } = createCommunitiesFromColumns(
      entities,
      relationships,
      ctx.settings.cluster_graph,
      period,
      previous,
    )
    if (nonPositiveEdges > 0) {
      ctx.stats.warning(
        `${nonPositiveEdges} relationships with weight <= 0 left out of clustering (no affinity); the relationships table keeps them`,
      )
    }
    await ctx.tables.write(COMMUNITIES, rows)
    const levels = new Set(rows.map((r) => r.level)).size
    const summary: Record<string, number | string | boolean> = { levels, mode: ctx.settings.cluster_graph.mode }
    if (continuity !== undefined) Object.assign(summary, continuitySummary(ctx, continuity))
    if (sizeFloor !== undefined) {
      summary.small_communities_merged = sizeFloor.merged
      summary.small_communities_dropped = sizeFloor.dropped
    }
    return { rows: { [COMMUNITIES.name]: rows.length }, summary }
  },
})

/**
 * Keys added later (resolution, min_community_size: seed design 001) join the fingerprint only when
 * they differ from their defaults, so an index clustered before them still resumes.
 */
function clusterFingerprint(s: Settings['cluster_graph']): Record<string, unknown> {
  const { resolution, min_community_size: minSize, ...rest } = s
  return {
    ...rest,
    ...(resolution === 1 ? {} : { resolution }),
    ...(minSize === 1 ? {} : { min_community_size: minSize }),
  }
}
