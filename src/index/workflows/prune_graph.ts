/** Workflow prune_graph (fast): drops weak or overly common noun phrases and weak co-occurrences. */
import { WorkflowError } from '../../errors.js'
import { NLP_ENTITIES } from '../../model/entities.js'
import { NLP_RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns, type RowOf } from '../../model/schema.js'
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

/** The columns pruning decides on: the text-unit lists (most of the table) are read only for the rows kept. */
const DECIDING = pickColumns(NLP_RELATIONSHIPS, ['source', 'target', 'weight'])

/** The pruned graph, or the whole one with a warning when pruning would leave nothing, and how many rows went. */
async function prunedTables(ctx: WorkflowContext) {
  const entities = await ctx.tables.read(NLP_ENTITIES)
  const { decided, total, wanted } = await decide(ctx, entities)
  let out: { entities: typeof entities; relationships: RowOf<typeof NLP_RELATIONSHIPS>[] }
  if (wanted === undefined) out = { entities: [...entities], relationships: await ctx.tables.read(NLP_RELATIONSHIPS) }
  else {
    const relationships =
      decided.relationships.length === 0
        ? []
        : await ctx.tables.read(NLP_RELATIONSHIPS, { rows: (i) => wanted[i] === 1 })
    out = { entities: decided.entities, relationships }
  }
  const removed = { entities: entities.length - out.entities.length, relationships: total - out.relationships.length }
  return { out, removed }
}

/**
 * Prunes on the deciding columns: which rows to read in full (`wanted[i]` is 1 for row i), or
 * undefined when the whole graph is kept because pruning would leave nothing.
 */
async function decide(ctx: WorkflowContext, entities: RowOf<typeof NLP_ENTITIES>[]) {
  const deciding = await ctx.tables.read(DECIDING)
  const decided = prune(entities, deciding, ctx.settings.prune_graph)
  const total = deciding.length
  // The reference fails here; a small corpus (one CSV row per phrase) is better served by the whole graph and a hint.
  if ((decided.entities.length === 0 || decided.relationships.length === 0) && entities.length > 0 && total > 0) {
    const counts = { entities: decided.entities.length, relationships: decided.relationships.length }
    ctx.stats.warning(emptyPruneWarning(entities, deciding, ctx.settings.prune_graph, counts))
    return { decided, total, wanted: undefined }
  }
  // Pruning only filters, so the rows it keeps are a subsequence of the rows read: one walk finds them.
  const wanted = new Uint8Array(total)
  const kept = decided.relationships
  for (let i = 0, k = 0; i < total && k < kept.length; i++)
    if (deciding[i] === kept[k]) {
      wanted[i] = 1
      k++
    }
  return { decided, total, wanted }
}
