/** Workflow extract_covariates (standard, only when extract_claims.enabled): claims per text unit. */
import { DEFAULT_ENTITY_TYPES } from '../../config/sections/workflows.js'
import type { Settings } from '../../config/schema.js'
import { COVARIATES } from '../../model/covariates.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { extractClaims, pythonListRepr, type ExtractClaimsResult } from '../operations/extract-covariates/extract.js'
import { extractClaimsUsage, guessClaims, ZERO } from '../operations/estimate-usage.js'
import { checkFailures } from '../operations/extract-graph/check.js'
import { NO_MODELS, type Workflow, type WorkflowResult } from '../workflow.js'
import { extractFromUnits, prefetchUnits, readGleaningPrompts, type UnitExtractionStep } from './unit-extraction.js'

const NAME = 'extract_covariates'

const promptFiles = (s: Settings) => ({
  extract: { keyPath: 'extract_claims.prompt', path: s.extract_claims.prompt, builtin: 'extract_claims.txt' },
  continuation: { keyPath: 'extract_claims.prompt', path: null, builtin: 'internal/extract_claims_continue.txt' },
  loop: { keyPath: 'extract_claims.prompt', path: null, builtin: 'internal/extract_claims_loop.txt' },
})

export const extractCovariates: Workflow = {
  name: NAME,
  reads: [BASE_TEXT_UNITS.name],
  writes: [COVARIATES.name],
  fingerprint: (s) => ({
    claims: s.extract_claims,
    entity_types: s.extract_graph.entity_types,
    budget: s.extract_graph.max_failed_fraction,
    ...(s.extract_graph.fail_on_empty_replies ? { fail_on_empty_replies: true } : {}),
  }),
  models: (s) =>
    s.extract_claims.enabled ? { chat: [s.extract_claims.completion_model_id], embedding: [] } : NO_MODELS,
  prompts: (s) => (s.extract_claims.enabled ? Object.values(promptFiles(s)) : []),
  guessGraph: (s, figures) => (s.extract_claims.enabled ? guessClaims(figures, s.extract_claims.max_gleanings) : {}),
  estimate(x) {
    const s = x.settings.extract_claims
    if (!s.enabled) return ZERO
    const prompts = promptFiles(x.settings)
    const entitySpecs = pythonListRepr(x.settings.extract_graph.entity_types ?? DEFAULT_ENTITY_TYPES)
    const sizes = {
      template: x.promptTokens(prompts.extract, {
        input_text: '',
        claim_description: s.description,
        entity_specs: entitySpecs,
      }),
      continuation: x.promptTokens(prompts.continuation, {}),
      loop: x.promptTokens(prompts.loop, {}),
    }
    return extractClaimsUsage(x, sizes, s.max_gleanings)
  },
  async run(ctx): Promise<WorkflowResult> {
    if (!ctx.settings.extract_claims.enabled) return { summary: { skipped: 'extract_claims.enabled is false' } }
    const result = await extractFromUnits(ctx, extractionStep(ctx.settings))
    // Claims share graph extraction's failure budget (extract_claims has no setting of its own).
    checkFailures(NAME, result, ctx.settings.extract_graph.max_failed_fraction, 'extract_graph.max_failed_fraction')
    await ctx.tables.write(COVARIATES, result.rows)
    return {
      rows: { [COVARIATES.name]: result.rows.length },
      summary: {
        failed_chunks: result.failures.length,
        parse_drops: result.dropped.length,
        empty_replies: result.emptyReplies.length,
      },
    }
  },
  prefetch: async (ctx, shard) =>
    ctx.settings.extract_claims.enabled ? prefetchUnits(ctx, extractionStep(ctx.settings), shard) : {},
}

function extractionStep(s: Settings): UnitExtractionStep<ExtractClaimsResult> {
  const settings = s.extract_claims
  const options = {
    ...readGleaningPrompts(promptFiles(s)),
    entityTypes: s.extract_graph.entity_types ?? DEFAULT_ENTITY_TYPES,
    claimDescription: settings.description,
    maxGleanings: settings.max_gleanings,
    concurrency: s.concurrent_requests,
    blankAsEmpty: !s.extract_graph.fail_on_empty_replies,
  }
  return {
    workflow: NAME,
    label: 'claim extraction',
    recordNoun: 'claim',
    model: {
      id: settings.completion_model_id,
      keyPath: 'extract_claims.completion_model_id',
      cachePartition: settings.model_instance_name,
    },
    extract: (units, services) => extractClaims(units, options, services),
  }
}
