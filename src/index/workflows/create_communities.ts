/** Workflow create_communities: clusters the relationship graph and writes the communities table. */
import { COMMUNITIES } from '../../model/communities.js'
import { ENTITIES } from '../../model/entities.js'
import { RELATIONSHIPS } from '../../model/relationships.js'
import { createCommunities as computeCommunities } from '../operations/create-communities.js'
import { NO_MODELS, type Workflow } from '../workflow.js'

export const createCommunities: Workflow = {
  name: 'create_communities',
  reads: [ENTITIES.name, RELATIONSHIPS.name],
  writes: [COMMUNITIES.name],
  fingerprint: (settings) => settings.cluster_graph,
  models: () => NO_MODELS,
  prompts: () => [],
  async run(ctx) {
    const entities = await ctx.tables.read(ENTITIES)
    const relationships = await ctx.tables.read(RELATIONSHIPS)
    // The reference stamps the UTC run date; it comes from the injected clock so tests can pin it.
    const period = ctx.clock.now().toISOString().slice(0, 10)
    const { rows, nonPositiveEdges } = computeCommunities(entities, relationships, ctx.settings.cluster_graph, period)
    if (nonPositiveEdges > 0) {
      ctx.stats.warning(
        `${nonPositiveEdges} relationships with weight <= 0 left out of clustering (no affinity); the relationships table keeps them`,
      )
    }
    await ctx.tables.write(COMMUNITIES, rows)
    const levels = new Set(rows.map((r) => r.level)).size
    return { rows: { [COMMUNITIES.name]: rows.length }, summary: { levels, mode: ctx.settings.cluster_graph.mode } }
  },
}
