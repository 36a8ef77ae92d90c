/** Shared by the update_* workflows: the previous index's rows of a table (empty when it has none or this is not an update). */
import { DOCUMENTS, type INPUT_DOCUMENTS } from '../../model/documents.js'
import type { RowOf, TableSchema } from '../../model/schema.js'
import { type DocumentChanges, documentChanges } from '../operations/document-changes.js'
import type { WorkflowContext } from '../workflow.js'

export async function previousRows<S extends TableSchema>(ctx: WorkflowContext, schema: S): Promise<RowOf<S>[]> {
  const previous = ctx.previousTables
  if (previous === undefined || !(await previous.has(schema.name))) return []
  return previous.read(schema)
}

export async function currentRows<S extends TableSchema>(ctx: WorkflowContext, schema: S): Promise<RowOf<S>[]> {
  return (await ctx.tables.has(schema.name)) ? ctx.tables.read(schema) : []
}

/**
 * The documents the update adds, edits and deletes: as the update planned them (run/update.ts), or
 * when a workflow runs without that plan, compared here with the documents of `current`.
 */
export async function updateChanges(
  ctx: WorkflowContext,
  current: typeof DOCUMENTS | typeof INPUT_DOCUMENTS,
): Promise<DocumentChanges> {
  return ctx.changes ?? documentChanges(await previousRows(ctx, DOCUMENTS), await currentRows(ctx, current))
}
