/** Workflow update_covariates: records the claims the update added and removed (nothing when claims are off). */
import { COVARIATES } from '../../model/covariates.js'
import { pickColumns } from '../../model/schema.js'
import { diffKeyed, diffSummary } from '../operations/index-diff.js'
import { defineWorkflow } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

const CLAIM_COLUMNS = pickColumns(COVARIATES, ['text_unit_id', 'description'])

export const updateCovariates = defineWorkflow({
  name: 'update_covariates',
  reads: [COVARIATES.name],
  writes: [],
  async run(ctx) {
    if (!ctx.settings.extract_claims.enabled) return { summary: { claims: 'disabled' } }
    const claim = (c: { text_unit_id: string | null; description: string | null }) =>
      `${c.text_unit_id}\u0000${c.description}`
    return {
      summary: diffSummary(
        'covariates',
        diffKeyed(await previousRows(ctx, CLAIM_COLUMNS), await currentRows(ctx, CLAIM_COLUMNS), claim, claim),
      ),
    }
  },
})
