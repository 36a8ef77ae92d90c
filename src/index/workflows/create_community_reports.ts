/** Workflow create_community_reports (standard): one LLM report per community from its graph context. */
import { ConfigError } from '../../errors.js'
import type { Settings } from '../../config/schema.js'
import { COMMUNITIES } from '../../model/communities.js'
import { COMMUNITY_REPORTS } from '../../model/community-reports.js'
import { COVARIATES } from '../../model/covariates.js'
import { ENTITIES } from '../../model/entities.js'
import { RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns } from '../../model/schema.js'
import { generateGraphReports } from '../operations/community-reports/generate.js'
import { tableIdentityMaps } from '../operations/community-reports/stable-reuse.js'
import { rowsLosingContent } from '../operations/community-reports/stale-reuse.js'
import { graphReportsUsage } from '../operations/estimate-usage.js'
import { readPrompt } from '../../prompts/prompt-files.js'
import { defineWorkflow, type PromptFile } from '../workflow.js'
import { writeReports } from './report-output.js'
import { reuseSummary, stableReports } from './stable-reports.js'
import { previousRows } from './update-previous.js'

const NAME = 'create_community_reports'

// The columns contexts, reuse and the report rows use: at 100k entities the communities' relationship
// and text-unit lists alone are most of what a full read would copy.
const REPORT_ENTITIES = pickColumns(ENTITIES, [
  'id',
  'human_readable_id',
  'title',
  'description',
  'degree',
  'text_unit_ids',
])
const REPORT_RELATIONSHIPS = pickColumns(RELATIONSHIPS, [
  'human_readable_id',
  'source',
  'target',
  'description',
  'combined_degree',
  'text_unit_ids',
])
const REPORT_COMMUNITIES = pickColumns(COMMUNITIES, [
  'community',
  'level',
  'parent',
  'children',
  'entity_ids',
  'period',
  'size',
])
const PREVIOUS_RELATIONSHIPS = pickColumns(RELATIONSHIPS, ['human_readable_id', 'source', 'target', 'text_unit_ids'])

const promptFile = (s: Settings): PromptFile => ({
  keyPath: 'community_reports.graph_prompt',
  path: s.community_reports.graph_prompt,
  builtin: 'community_report_graph.txt',
})

export const createCommunityReports = defineWorkflow({
  name: NAME,
  reads: [ENTITIES.name, RELATIONSHIPS.name, COMMUNITIES.name, COVARIATES.name],
  writes: [COMMUNITY_REPORTS.name],
  fingerprint: (settings) => ({ reports: settings.community_reports, claims: settings.extract_claims.enabled }),
  models: (s) => ({
    chat: s.community_reports.completion_model_id === null ? [] : [s.community_reports.completion_model_id],
    embedding: [],
  }),
  prompts: (s) => [promptFile(s)],
  estimate(x) {
    const s = x.settings.community_reports
    const template = x.promptTokens(promptFile(x.settings), { input_text: '', max_report_length: String(s.max_length) })
    return graphReportsUsage(x, template, s.max_input_length)
  },
  async run(ctx) {
    const settings = ctx.settings.community_reports
    const modelId = settings.completion_model_id
    if (modelId === null) {
      throw new ConfigError('the standard method needs a chat model for community reports', {
        keyPath: 'community_reports.completion_model_id',
      })
    }
    const chat = ctx.models.chat(modelId, {
      keyPath: 'community_reports.completion_model_id',
      cachePartition: settings.model_instance_name,
    })
    const entities = await ctx.tables.read(REPORT_ENTITIES)
    const relationships = await ctx.tables.read(REPORT_RELATIONSHIPS)
    const communities = await ctx.tables.read(REPORT_COMMUNITIES)
    const withClaims = ctx.settings.extract_claims.enabled && (await ctx.tables.has(COVARIATES.name))
    const claims = withClaims ? await ctx.tables.read(COVARIATES) : null

    const progress = ctx.progress('community reports', communities.length)
    const options = {
      prompt: readPrompt(promptFile(ctx.settings)),
      maxReportLength: settings.max_length,
      maxInputLength: settings.max_input_length,
    }
    const input = { entities, relationships, communities, claims }
    const current = { entities, relationships, claims, communities }
    const stable = await stableReports(
      ctx,
      tableIdentityMaps(entities, relationships, claims),
      current,
      async (previousEntities) => {
        const before = {
          entities: previousEntities,
          relationships: await previousRows(ctx, PREVIOUS_RELATIONSHIPS),
          claims: claims === null ? null : await previousRows(ctx, COVARIATES),
        }
        return {
          maps: tableIdentityMaps(before.entities, before.relationships, before.claims),
          losing: rowsLosingContent(before, current),
        }
      },
    )
    const result = await generateGraphReports(input, options, {
      chat,
      signal: ctx.signal,
      onCommunityDone: () => progress.tick(),
      stable,
    })
    progress.done()

    const written = await writeReports(ctx, NAME, result, communities)
    return {
      rows: { [COMMUNITY_REPORTS.name]: written },
      summary: { failed: result.failures.length, ...reuseSummary(result, stable) },
    }
  },
})
