/**
 * Workflow update_clean_state: the last step of an update. The reference drops the merge state it
 * stashed; ours has none (the tables were rebuilt, not merged), so this step checks what that
 * merge must guarantee: no text unit of a deleted or edited document remains, and no entity,
 * relationship or claim cites a text unit or entity that is gone. A dangling reference fails the run,
 * so the previous index stays published.
 */
import { WorkflowError } from '../../errors.js'
import { COVARIATES } from '../../model/covariates.js'
import { DOCUMENTS } from '../../model/documents.js'
import { ENTITIES } from '../../model/entities.js'
import { RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns } from '../../model/schema.js'
import { TEXT_UNITS } from '../../model/text-units.js'
import { integrityProblems } from '../operations/index-diff.js'
import { defineWorkflow } from '../workflow.js'
import { currentRows } from './update-previous.js'

// Only the ids and references checked: texts, descriptions and ranks are not decoded.
const DOCUMENT_IDS = pickColumns(DOCUMENTS, ['id'])
const UNIT_DOCUMENTS = pickColumns(TEXT_UNITS, ['id', 'document_id'])
const ENTITY_UNITS = pickColumns(ENTITIES, ['title', 'text_unit_ids'])
const RELATIONSHIP_UNITS = pickColumns(RELATIONSHIPS, ['source', 'target', 'text_unit_ids'])
const CLAIM_UNITS = pickColumns(COVARIATES, ['id', 'text_unit_id'])

export const updateCleanState = defineWorkflow({
  name: 'update_clean_state',
  reads: [DOCUMENTS.name, TEXT_UNITS.name, ENTITIES.name, RELATIONSHIPS.name, COVARIATES.name],
  writes: [],
  async run(ctx) {
    const problems = integrityProblems({
      documentIds: (await currentRows(ctx, DOCUMENT_IDS)).map((d) => d.id),
      textUnits: await currentRows(ctx, UNIT_DOCUMENTS),
      entities: (await currentRows(ctx, ENTITY_UNITS)).map((e) => ({
        title: e.title,
        text_unit_ids: e.text_unit_ids ?? [],
      })),
      relationships: (await currentRows(ctx, RELATIONSHIP_UNITS)).map((r) => ({
        source: r.source,
        target: r.target,
        text_unit_ids: r.text_unit_ids ?? [],
      })),
      covariates: ctx.settings.extract_claims.enabled ? await currentRows(ctx, CLAIM_UNITS) : [],
    })
    if (problems.length > 0) {
      throw new WorkflowError(
        'update_clean_state',
        `the updated index has ${problems.length} dangling reference(s), first: ${problems[0]}; the previous index stays published`,
      )
    }
    return { summary: { integrity_checked: true } }
  },
})
