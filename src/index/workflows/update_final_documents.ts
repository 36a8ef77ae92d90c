/** Workflow update_final_documents: records which documents the update added, changed (by title) and removed. */
import { DOCUMENTS } from '../../model/documents.js'
import { diffSummary } from '../operations/index-diff.js'
import { defineWorkflow } from '../workflow.js'
import { updateChanges } from './update-previous.js'

export const updateFinalDocuments = defineWorkflow({
  name: 'update_final_documents',
  reads: [DOCUMENTS.name],
  writes: [],
  async run(ctx) {
    const changes = await updateChanges(ctx, DOCUMENTS)
    const diff = {
      added: changes.added.length,
      removed: changes.deleted.length,
      changed: changes.edited.length,
      unchanged: changes.unchanged,
    }
    return { summary: diffSummary('documents', diff) }
  },
})
