/** Workflow update_text_units: records the text units the update added and removed (ids are content hashes). */
import { TEXT_UNITS } from '../../model/text-units.js'
import { diffKeyed, diffSummary } from '../operations/index-diff.js'
import { defineWorkflow } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

export const updateTextUnits = defineWorkflow({
  name: 'update_text_units',
  reads: [TEXT_UNITS.name],
  writes: [],
  async run(ctx) {
    const links = (u: { entity_ids: readonly string[] | null; relationship_ids: readonly string[] | null }) =>
      JSON.stringify([u.entity_ids, u.relationship_ids])
    return {
      summary: diffSummary(
        'text_units',
        diffKeyed(await previousRows(ctx, TEXT_UNITS), await currentRows(ctx, TEXT_UNITS), (u) => u.id, links),
      ),
    }
  },
})
