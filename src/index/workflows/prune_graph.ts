/** Workflow prune_graph (fast): drops weak or overly common noun phrases and weak co-occurrences. */
import { WorkflowError } from '../../errors.js'
import { NLP_ENTITIES } from '../../model/entities.js'
import { NLP_RELATIONSHIPS } from '../../model/relationships.js'
import { emptyPruneWarning } from '../operations/prune-fallback.js'
import { pruneGraph as prune } from '../operations/prune-graph.js'
import { defineWorkflow, type WorkflowContext } from '../workflow.js'

const NAME = 'prune_graph'

export const pruneGraph = defineWorkflow({
  name: NAME,
  reads: [NLP_ENTITIES.name, NLP_RELATIONSHIPS.name],
  writes: [NLP_ENTITIES.name, NLP_RELATIONSHIPS.name],
  fingerprint: (settings) => settings.prune_graph,
  async run(ctx) {
    // The tables as read (millions of rows on a dense corpus) are out of scope before the pruned ones
    // are written, so their memory can go while the writer needs its own.
    const { out, removed } = await prunedTables(ctx)
    if (out.entities.length === 0) throw new WorkflowError(NAME, 'Graph Pruning failed. No entities remain.')
    if (out.relationships.length === 0)
      throw new WorkflowError(
        NAME,
        'Graph Pruning failed. No relationships remain: no two noun phrases share a text unit.',
      )
    await ctx.tables.write(NLP_ENTITIES, out.entities)
    await ctx.tables.write(NLP_RELATIONSHIPS, out.relationships)
    return {
      rows: { [NLP_ENTITIES.name]: out.entities.length, [NLP_RELATIONSHIPS.name]: out.relationships.length },
      summary: { removed_entities: removed.entities, removed_relationships: removed.relationships },
    }
  },
})

/** The pruned graph, or the whole one with a warning when pruning would leave nothing, and how many rows went. */
async function prunedTables(ctx: WorkflowContext) {
  const entities = await ctx.tables.read(NLP_ENTITIES)
  const relationships = await ctx.tables.read(NLP_RELATIONSHIPS)
  let out = prune(entities, relationships, ctx.settings.prune_graph)
  // The reference fails here; a small corpus (one CSV row per phrase) is better served by the whole graph and a hint.
  if (
    (out.entities.length === 0 || out.relationships.length === 0) &&
    entities.length > 0 &&
    relationships.length > 0
  ) {
    const counts = { entities: out.entities.length, relationships: out.relationships.length }
    ctx.stats.warning(emptyPruneWarning(entities, relationships, ctx.settings.prune_graph, counts))
    out = { ...out, entities: [...entities], relationships: [...relationships] }
  }
  const removed = {
    entities: entities.length - out.entities.length,
    relationships: relationships.length - out.relationships.length,
  }
  return { out, removed }
}
