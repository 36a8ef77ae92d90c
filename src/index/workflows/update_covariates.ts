/** Workflow update_covariates: records the claims the update added and removed (nothing when claims are off). */
import { COVARIATES } from '../../model/covariates.js'
import { diffKeyed, diffSummary } from '../operations/index-diff.js'
import { defineWorkflow } from '../workflow.js'
import { currentRows, previousRows } from './update-previous.js'

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
        diffKeyed(await previousRows(ctx, COVARIATES), await currentRows(ctx, COVARIATES), claim, claim),
      ),
    }
  },
})
