/** Workflow update_text_units: records the text units the update added and removed (ids are content hashes). */
import { pickColumns } from '../../model/schema.js'
import { TEXT_UNITS } from '../../model/text-units.js'
import { diffKeyed, diffSummary } from '../operations/index-diff.js'
import { defineWorkflow } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

/** Only the columns compared: the units' text is not decoded. */
const UNIT_LINKS = pickColumns(TEXT_UNITS, ['id', 'entity_ids', 'relationship_ids'])

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
        diffKeyed(await previousRows(ctx, UNIT_LINKS), await currentRows(ctx, UNIT_LINKS), (u) => u.id, links),
      ),
    }
  },
})
