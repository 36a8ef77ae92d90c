/** Workflow extract_covariates (standard, only when extract_claims.enabled): claims per text unit. */
import { DEFAULT_ENTITY_TYPES } from '../../config/sections/workflows.js'
import type { Settings } from '../../config/schema.js'
import { COVARIATES } from '../../model/covariates.js'
import { BASE_TEXT_UNITS } from '../../model/text-units.js'
import { extractClaims, pythonListRepr } from '../operations/extract-covariates/extract.js'
import { extractClaimsUsage, guessClaims, ZERO } from '../operations/estimate-usage.js'
import { checkFailures } from '../operations/extract-graph/check.js'
import { readPrompt } from '../../prompts/prompt-files.js'
import { NO_MODELS, type Workflow, type WorkflowResult } from '../workflow.js'
import { recordExtraction } from './extraction-stats.js'

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
    const settings = ctx.settings.extract_claims
    if (!settings.enabled) return { summary: { skipped: 'extract_claims.enabled is false' } }
    const chat = ctx.models.chat(settings.completion_model_id, {
      keyPath: 'extract_claims.completion_model_id',
      cachePartition: settings.model_instance_name,
    })
    const units = await ctx.tables.read(BASE_TEXT_UNITS)
    const progress = ctx.progress('claim extraction', units.length)
    const prompts = promptFiles(ctx.settings)
    const options = {
      prompt: readPrompt(prompts.extract),
      continuationPrompt: readPrompt(prompts.continuation),
      loopPrompt: readPrompt(prompts.loop),
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
    return {
      rows: { [COVARIATES.name]: result.rows.length },
      summary: { failed_chunks: result.failures.length, parse_drops: result.dropped.length },
    }
  },
}
