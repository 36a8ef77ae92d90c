/** Shared by the update_* workflows: the previous index's rows of a table (empty when it has none or this is not an update). */
import type { RowOf, TableSchema } from '../../model/schema.js'
import type { WorkflowContext } from '../workflow.js'

export async function previousRows<S extends TableSchema>(ctx: WorkflowContext, schema: S): Promise<RowOf<S>[]> {
  const previous = ctx.previousTables
  if (previous === undefined || !(await previous.has(schema.name))) return []
  return previous.read(schema)
}

export async function currentRows<S extends TableSchema>(ctx: WorkflowContext, schema: S): Promise<RowOf<S>[]> {
  return (await ctx.tables.has(schema.name)) ? ctx.tables.read(schema) : []
}
