/** Workflow extract_covariates (standard, only when extract_claims.enabled): claims per text unit. */
import { DEFAULT_ENTITY_TYPES } from '../../config/sections/workflows.js'
import { loadPrompt } from '../../llm/prompt-template.js'
import { COVARIATES } from '../../model/covariates.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { extractClaims } from '../operations/extract-covariates/extract.js'
import { checkFailures } from '../operations/extract-graph/check.js'
import type { Workflow, WorkflowResult } from '../workflow.js'
import { recordExtraction } from './extraction-stats.js'

const NAME = 'extract_covariates'

export const extractCovariates: Workflow = {
  name: NAME,
  reads: [BASE_TEXT_UNITS.name],
  writes: [COVARIATES.name],
  fingerprint: (s) => ({ claims: s.extract_claims, entity_types: s.extract_graph.entity_types, budget: s.extract_graph.max_failed_fraction }),
  async run(ctx): Promise<WorkflowResult> {
    const settings = ctx.settings.extract_claims
    if (!settings.enabled) return { summary: { skipped: 'extract_claims.enabled is false' } }
    const chat = ctx.models.chat(settings.completion_model_id, { keyPath: 'extract_claims.completion_model_id', cachePartition: settings.model_instance_name })
    const units = await ctx.tables.read(BASE_TEXT_UNITS)
    const progress = ctx.progress('claim extraction', units.length)
    const options = {
      prompt: loadPrompt(settings.prompt, 'extract_claims.txt', 'extract_claims.prompt'),
      continuationPrompt: loadPrompt(null, 'internal/extract_claims_continue.txt', 'extract_claims.prompt'),
      loopPrompt: loadPrompt(null, 'internal/extract_claims_loop.txt', 'extract_claims.prompt'),
      entityTypes: ctx.settings.extract_graph.entity_types ?? DEFAULT_ENTITY_TYPES,
      claimDescription: settings.description,
      maxGleanings: settings.max_gleanings,
      concurrency: ctx.settings.concurrent_requests,
    }
    const result = await extractClaims(units, options, { chat, signal: ctx.signal, onUnitDone: () => progress.tick() })
    progress.done()
    recordExtraction(ctx, NAME, result, 'claim')
    // Claims share graph extraction's failure budget (extract_claims has no setting of its own).
    checkFailures(NAME, result, ctx.settings.extract_graph.max_failed_fraction, 'extract_graph.max_failed_fraction')
    await ctx.tables.write(COVARIATES, result.rows)
    return { rows: { [COVARIATES.name]: result.rows.length }, summary: { failed_chunks: result.failures.length, parse_drops: result.dropped.length } }
  },
}
