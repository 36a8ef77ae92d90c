/** Workflow update_final_documents: records which documents the update added, changed (by title) and removed. */
import { DOCUMENTS } from '../../model/documents.js'
import { diffKeyed, diffSummary } from '../operations/index-diff.js'
import { NO_MODELS, type Workflow } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

export const updateFinalDocuments: Workflow = {
  name: 'update_final_documents',
  reads: [DOCUMENTS.name],
  writes: [],
  fingerprint: () => ({}),
  models: () => NO_MODELS,
  prompts: () => [],
  async run(ctx) {
    const diff = diffKeyed(
      await previousRows(ctx, DOCUMENTS),
      await currentRows(ctx, DOCUMENTS),
      (d) => d.title,
      (d) => d.id,
    )
    return { summary: diffSummary('documents', diff) }
  },
}
