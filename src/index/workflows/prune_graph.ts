/** Workflow prune_graph (fast): drops weak or overly common noun phrases and weak co-occurrences. */
import { WorkflowError } from '../../errors.js'
import { NLP_ENTITIES } from '../../model/entities.js'
import { NLP_RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns, type RowOf } from '../../model/schema.js'
import { asWritten, columnOf, rowsOfColumns, type TableColumns } from '../../storage/table-columns.js'
import { readColumns, type RowSource } from '../../storage/table-store.js'
import { type PairCodes, prunePairCodes } from '../operations/prune-codes.js'
import { emptyPruneWarning } from '../operations/prune-fallback.js'
import { defineWorkflow, type WorkflowContext } from '../workflow.js'

const NAME = 'prune_graph'

export const pruneGraph = defineWorkflow({
  name: NAME,
  reads: [NLP_ENTITIES.name, NLP_RELATIONSHIPS.name],
  writes: [NLP_ENTITIES.name, NLP_RELATIONSHIPS.name],
  fingerprint: (settings) => settings.prune_graph,
  async run(ctx) {
    // The deciding columns are out of scope before the kept rows are read, so their memory can go.
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

/**
 * The pruned graph, or the whole one with a warning when pruning would leave nothing, and how many rows
 * went. The relationships kept are read as columns and made into rows a row group at a time as written.
 */
async function prunedTables(ctx: WorkflowContext) {
  const entities = await ctx.tables.read(NLP_ENTITIES)
  const { keptEntities, total, wanted, count } = await decide(ctx, entities)
  const rows = wanted === undefined ? undefined : (i: number) => wanted[i] === 1
  const kept = await readColumns(ctx.tables, NLP_RELATIONSHIPS, { rows, count })
  const out = { entities: keptEntities, relationships: rowsWhenWritten(kept) }
  const removed = { entities: entities.length - out.entities.length, relationships: total - kept.length }
  return { out, removed }
}

/** Relationship rows made from the columns when sliced (the writer asks for a row group at a time). */
function rowsWhenWritten(table: TableColumns): RowSource<RowOf<typeof NLP_RELATIONSHIPS>> {
  return asWritten({ length: table.length, slice: (start, end) => rowsOfColumns(NLP_RELATIONSHIPS, table, start, end) })
}

/**
 * Prunes on the deciding columns: the entities kept and which relationship rows to read in full
 * (`wanted[i]` is 1 for row i), or undefined when the whole graph is kept because pruning would leave nothing.
 */
async function decide(ctx: WorkflowContext, entities: RowOf<typeof NLP_ENTITIES>[]) {
  const deciding = await readColumns(ctx.tables, DECIDING)
  const pairs: PairCodes = {
    source: columnOf(deciding, 'source', 'string').codes,
    target: columnOf(deciding, 'target', 'string').codes,
    weight: columnOf(deciding, 'weight', 'double').values,
    titles: deciding.values,
  }
  const decided = prunePairCodes(entities, pairs, ctx.settings.prune_graph)
  const total = deciding.length
  // The reference fails here; a small corpus (one CSV row per phrase) is better served by the whole graph and a hint.
  if ((decided.entities.length === 0 || decided.kept === 0) && entities.length > 0 && total > 0) {
    const counts = { entities: decided.entities.length, relationships: decided.kept }
    const rows = rowsOfColumns(DECIDING, deciding)
    ctx.stats.warning(emptyPruneWarning(entities, rows, ctx.settings.prune_graph, counts))
    return { keptEntities: [...entities], total, wanted: undefined, count: total }
  }
  return { keptEntities: decided.entities, total, wanted: decided.wanted, count: decided.kept }
}
