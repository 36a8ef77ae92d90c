/** Workflow create_final_documents: rewrites documents with their text unit ids, in final column order (§5.3). */
import { DOCUMENTS, INPUT_DOCUMENTS } from '../../model/documents.js'
import { pickColumns } from '../../model/schema.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { createFinalDocuments as finalDocuments } from '../operations/create-final-documents.js'
import { defineWorkflow } from '../workflow.js'

/** What this workflow needs of the text units: not their text, the largest column by far. */
const UNIT_DOCUMENTS = pickColumns(BASE_TEXT_UNITS, ['id', 'document_id'])

export const createFinalDocuments = defineWorkflow({
  name: 'create_final_documents',
  reads: [INPUT_DOCUMENTS.name, BASE_TEXT_UNITS.name],
  writes: [DOCUMENTS.name],
  extendsTables: [DOCUMENTS.name],
  fingerprint: () => null,
  async run(ctx) {
    const documents = await ctx.tables.read(INPUT_DOCUMENTS)
    const textUnits = await ctx.tables.read(UNIT_DOCUMENTS)
    const rows = finalDocuments(documents, textUnits)
    await ctx.tables.write(DOCUMENTS, rows)
    return { rows: { [DOCUMENTS.name]: rows.length } }
  },
})
