/**
 * Workflow load_update_documents (first step of standard-update / fast-update): loads every input
 * document like load_input_documents, and compares them with the previous index by title and
 * content hash (new, edited, deleted). Unlike the reference, edited and deleted documents count,
 * and all documents go on through the pipeline (earlier model answers are reused, not recomputed);
 * with nothing changed the pipeline stops here.
 */
import { INPUT_DOCUMENTS } from '../../model/documents.js'
import { curationChanged } from '../operations/entity-resolution/curation-state.js'
import { defineWorkflow } from '../workflow.js'
import { loadInputDocuments } from './load_input_documents.js'
import { updateChanges } from './update-previous.js'

export const loadUpdateDocuments = defineWorkflow({
  ...loadInputDocuments,
  name: 'load_update_documents',
  async run(ctx) {
    const loaded = await loadInputDocuments.run(ctx)
    const changes = await updateChanges(ctx, INPUT_DOCUMENTS)
    const [added, edited, deleted] = [changes.added.length, changes.edited.length, changes.deleted.length]
    // Ours: new curation.yaml rules are a change too (docs/entity-resolution.md).
    const curation = ctx.previousTables !== undefined && (await curationChanged(ctx.previousTables, ctx.settings))
    if (added + edited + deleted === 0 && !curation)
      ctx.log.info('load_update_documents: no new, edited or deleted documents; the index is up to date')
    return {
      ...loaded,
      summary: { ...loaded.summary, new_documents: added, edited_documents: edited, deleted_documents: deleted },
      stop: added + edited + deleted === 0 && !curation,
    }
  },
})
