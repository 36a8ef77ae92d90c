/**
 * Workflow create_community_reports_text (fast): LLM reports over each community's text units when
 * community_reports.completion_model_id names a configured chat model, extractive reports otherwise.
 */
import type { Settings } from '../../config/schema.js'
import { COMMUNITIES } from '../../model/communities.js'
import { COMMUNITY_REPORTS } from '../../model/community-reports.js'
import { ENTITIES } from '../../model/entities.js'
import { RELATIONSHIPS } from '../../model/relationships.js'
import { pickColumns } from '../../model/schema.js'
import { TEXT_UNITS } from '../../model/text-units.js'
import { type CommunityReportDraft, finalizeReports } from '../operations/community-reports/render.js'
import { textUnitIdentityMaps } from '../operations/community-reports/stable-reuse.js'
import { unitsGone } from '../operations/community-reports/stale-reuse.js'
import { textReportsUsage, ZERO } from '../operations/estimate-usage.js'
import {
  type ExtractiveReportInput,
  MAX_FINDINGS,
  strongestRelationships,
  writeExtractiveReportsOf,
} from '../operations/extractive-report/index.js'
import { buildTextUnitContexts } from '../operations/text-unit-report-context.js'
import { generateTextReports } from '../operations/text-unit-reports.js'
import { reportedCommunities } from '../operations/text-report-selection.js'
import { readPrompt } from '../../prompts/prompt-files.js'
import { defineWorkflow, NO_MODELS, type PromptFile, type WorkflowContext } from '../workflow.js'
import { writeReports } from './report-output.js'
import { reuseSummary, stableReports } from './stable-reports.js'
import { previousRows } from './update-previous.js'

const NAME = 'create_community_reports_text'

const usesLlm = (s: Settings) =>
  s.community_reports.completion_model_id !== null &&
  Object.hasOwn(s.completion_models, s.community_reports.completion_model_id)
const promptFile = (s: Settings): PromptFile => ({
  keyPath: 'community_reports.text_prompt',
  path: s.community_reports.text_prompt,
  builtin: 'community_report_text.txt',
})

export const createCommunityReportsText = defineWorkflow({
  name: NAME,
  reads: [ENTITIES.name, RELATIONSHIPS.name, COMMUNITIES.name, TEXT_UNITS.name],
  writes: [COMMUNITY_REPORTS.name],
  fingerprint: (settings) => ({
    reports: settings.community_reports,
    llm: usesLlm(settings),
    delimiter: settings.extract_graph_nlp.text_analyzer.word_delimiter,
  }),
  models: (s) => (usesLlm(s) ? { chat: [s.community_reports.completion_model_id!], embedding: [] } : NO_MODELS),
  prompts: (s) => (usesLlm(s) ? [promptFile(s)] : []),
  estimate(x) {
    const s = x.settings.community_reports
    if (!usesLlm(x.settings)) return ZERO
    const template = x.promptTokens(promptFile(x.settings), { input_text: '', max_report_length: String(s.max_length) })
    return textReportsUsage(x, template, contextBudget(s), s.text_units_per_report)
  },
  async run(ctx) {
    const settings = ctx.settings.community_reports
    const entities = await ctx.tables.read(ENTITIES)
    const communities = await ctx.tables.read(COMMUNITIES)
    const textUnits = await ctx.tables.read(REPORTED_TEXT_UNITS)
    if (!ctx.models.hasChat(settings.completion_model_id)) {
      const drafts = await extractiveDrafts(ctx, { communities, entities, textUnits })
      const rows = finalizeReports(drafts, communities)
      await ctx.tables.write(COMMUNITY_REPORTS, rows)
      return { rows: { [COMMUNITY_REPORTS.name]: rows.length }, summary: { writer: 'extractive', failed: 0 } }
    }
    const chat = ctx.models.chat(settings.completion_model_id!, {
      keyPath: 'community_reports.completion_model_id',
      cachePartition: settings.model_instance_name,
    })
    const chosen = reportedCommunities(communities, textUnits.length, settings.text_units_per_report)
    const contexts = modelContexts(settings, { communities, entities, textUnits }, (t) => chat.countTokens(t)).filter(
      (c) => chosen.has(c.community),
    )
    const progress = ctx.progress('community reports', contexts.filter((c) => c.text !== '').length)
    const prompt = readPrompt(promptFile(ctx.settings))
    const stable = await stableReports(ctx, textUnitIdentityMaps(textUnits), { communities, entities }, async () => {
      const before = await previousRows(ctx, REPORTED_TEXT_UNITS)
      return { maps: textUnitIdentityMaps(before), losing: unitsGone(before, textUnits) }
    })
    const result = await generateTextReports(
      contexts,
      { prompt, maxReportLength: settings.max_length },
      { chat, signal: ctx.signal, onCommunityDone: () => progress.tick(), stable },
    )
    progress.done()
    const modelCount = result.drafts.length
    if (chosen.size < communities.length) {
      const rest = await extractiveDrafts(ctx, { communities, entities, textUnits })
      result.drafts.push(...rest.filter((d) => !chosen.has(d.community)))
    }
    const written = await writeReports(ctx, NAME, result, communities)
    return {
      rows: { [COMMUNITY_REPORTS.name]: written },
      summary: {
        writer: 'llm',
        failed: result.failures.length,
        model_reports: modelCount,
        extractive_reports: written - modelCount,
        ...reuseSummary(result, stable),
      },
    }
  },
})

type ReportSettings = Settings['community_reports']

/**
 * The text-unit columns either writer reads: the table's entity and relationship id lists are most of
 * it on a dense corpus (642 MB of the 30 MB corpus's file), and decoding them took minutes for nothing.
 */
const REPORTED_TEXT_UNITS = pickColumns(TEXT_UNITS, ['id', 'human_readable_id', 'text'])

/** The offline writer's reports of every community (its ratings are scaled over all of them). */
async function extractiveDrafts(
  ctx: WorkflowContext,
  input: Omit<ExtractiveReportInput, 'relationships'>,
): Promise<CommunityReportDraft[]> {
  // Picked on columns: only each community's strongest relationships are made rows.
  const relationships = await strongestRelationships(ctx.tables, input.communities, MAX_FINDINGS)
  const wordDelimiter = ctx.settings.extract_graph_nlp.text_analyzer.word_delimiter
  return writeExtractiveReportsOf(input, relationships, { wordDelimiter })
}
type ContextInput = Parameters<typeof buildTextUnitContexts>[0]

/** Tokens of a model report's context: text_context_tokens within max_input_length (0: max_input_length). */
function contextBudget(s: ReportSettings): number {
  return s.text_context_tokens === 0 ? s.max_input_length : Math.min(s.text_context_tokens, s.max_input_length)
}

/** The text-unit contexts of model-written reports: excerpts within text_context_tokens, or whole units (0). */
function modelContexts(settings: ReportSettings, input: ContextInput, countTokens: (text: string) => number) {
  if (settings.text_context_tokens === 0) return buildTextUnitContexts(input, settings.max_input_length, countTokens)
  const maxTokens = contextBudget(settings)
  // A fifth of the budget per unit: a report reads at least five of its community's units.
  return buildTextUnitContexts(input, maxTokens, countTokens, Math.max(20, Math.floor(maxTokens / 5)))
}
