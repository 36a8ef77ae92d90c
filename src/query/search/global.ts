/**
 * Global search: map each batch of community reports to scored points (in parallel, bounded by
 * concurrent_requests), then reduce the best points under data_max_tokens into one answer.
 */
import type { Settings } from '../../config/index.js'
import { QueryError } from '../../errors.js'
import { formatPrompt, loadPrompt } from '../../prompts/prompt-template.js'
import { reportsAtLevel } from '../context/communities.js'
import { buildGlobalBatches, occurrenceWeights, type GlobalBatch } from '../context/global.js'
import { HISTORY_BUDGET_SHARE, historyBlock } from '../context/history.js'
import { mapBounded } from '../../storage/bounded-map.js'
import type { IndexTables } from '../load-index.js'
import type { SearchServices } from '../services.js'
import { selectReportsDynamically } from './dynamic-selection.js'
import { replyObject, toNumber } from './json-reply.js'
import { extractiveReportAnswer } from './offline-reports.js'
import { NO_DATA_ANSWER } from './prompts.js'
import type { QuestionInput, SearchRun } from './types.js'
import { isModelFailure } from './model-failure.js'

export type GlobalTables = Pick<IndexTables, 'entities' | 'communities' | 'community_reports'>

export interface GlobalParams extends QuestionInput {
  communityLevel: number
  dynamicCommunitySelection: boolean
}

export interface MapPoint {
  analyst: number
  description: string
  score: number
}

export async function* runGlobalSearch(
  params: GlobalParams,
  tables: GlobalTables,
  settings: Settings['global_search'],
  services: SearchServices,
): SearchRun {
  if (services.chat === undefined) {
    // Offline: the reports themselves, most relevant and highest rated first (dynamic selection needs a model).
    const offline = extractiveReportAnswer(
      params.query,
      reportsAtLevel(tables.community_reports, tables.communities, params.communityLevel),
      'global_search.completion_model_id',
    )
    yield offline.answer
    return offline.context
  }
  const reports = await selectReports(params, tables, settings, services)
  const weights = occurrenceWeights(reports, tables.communities, tables.entities)
  const history = historyBlock(
    params.history,
    params.historyMaxTurns,
    Math.floor(settings.max_context_tokens * HISTORY_BUDGET_SHARE),
    services.countTokens,
  )
  const batches = buildGlobalBatches(
    reports,
    weights,
    { maxContextTokens: settings.max_context_tokens, historyText: history.text, rng: services.rng },
    services.countTokens,
  )
  services.logger.debug(`global search: ${reports.length} reports in ${batches.length} batches`)
  const points = await mapBatches(params.query, batches, settings, services)
  const reduceData = reduceContext(points, settings.data_max_tokens, services.countTokens)
  const records = {
    reports: batches.flatMap((b) => b.records),
    points: points.map((p) => ({ analyst: p.analyst + 1, score: p.score, description: p.description })),
    ...(history.records.length > 0 ? { 'conversation history': history.records } : {}),
  }
  const result = { records, text: batches.map((b) => b.text).join('\n') }
  if (reduceData === '') {
    yield NO_DATA_ANSWER
    return result
  }
  const template = loadPrompt(
    settings.reduce_prompt,
    'global_search_reduce_system_prompt.txt',
    'global_search.reduce_prompt',
  )
  const system = formatPrompt(template, {
    report_data: reduceData,
    response_type: params.responseType,
    max_length: settings.reduce_max_length,
  })
  yield* services.chat.stream('reduce', {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: params.query },
    ],
  })
  return result
}

async function selectReports(
  params: GlobalParams,
  tables: GlobalTables,
  settings: Settings['global_search'],
  services: SearchServices,
) {
  if (!params.dynamicCommunitySelection)
    return reportsAtLevel(tables.community_reports, tables.communities, params.communityLevel)
  const eligible = tables.community_reports.filter((r) => r.level <= params.communityLevel)
  const selection = await selectReportsDynamically(
    params.query,
    eligible,
    tables.communities,
    {
      threshold: settings.dynamic_search_threshold,
      keepParent: settings.dynamic_search_keep_parent,
      numRepeats: settings.dynamic_search_num_repeats,
      useSummary: settings.dynamic_search_use_summary,
      maxLevel: settings.dynamic_search_max_level,
    },
    services,
  )
  return selection.reports
}

/** One map call per batch; a failed batch is counted and skipped, all failing is an error. */
async function mapBatches(
  query: string,
  batches: readonly GlobalBatch[],
  settings: Settings['global_search'],
  services: SearchServices,
): Promise<MapPoint[]> {
  const chat = services.chat!
  const template = loadPrompt(settings.map_prompt, 'global_search_map_system_prompt.txt', 'global_search.map_prompt')
  let lastError: unknown
  const perBatch = await mapBounded(batches, services.concurrency, async (batch, analyst) => {
    const system = formatPrompt(template, { context_data: batch.text, max_length: settings.map_max_length })
    try {
      const result = await chat.complete('map', {
        messages: [
          { role: 'system', content: system },
          { role: 'user', content: query },
        ],
        responseFormat: { type: 'json_object', required: ['points'] },
      })
      const points = replyObject(result)?.points
      if (!Array.isArray(points)) throw new QueryError('the map reply has no "points" list')
      return points.flatMap((p: unknown): MapPoint[] => {
        const { description, score } = (p ?? {}) as { description?: unknown; score?: unknown }
        const n = toNumber(score)
        return typeof description === 'string' && n !== undefined ? [{ analyst, description, score: n }] : []
      })
    } catch (error) {
      if (!isModelFailure(error)) throw error
      lastError = error
      services.meter.recordFailure('map')
      services.logger.warn(
        `global search: map batch ${analyst + 1} of ${batches.length} failed and was skipped: ${(error as Error).message}`,
      )
      return undefined
    }
  })
  if (batches.length > 0 && perBatch.every((p) => p === undefined)) {
    throw new QueryError(`global search failed: all ${batches.length} map calls failed`, { cause: lastError })
  }
  return perBatch.flatMap((p) => p ?? [])
}

/** Points with a positive score, best first, each kept if it still fits (not stop-at-first-overflow). */
export function reduceContext(
  points: readonly MapPoint[],
  budget: number,
  countTokens: (text: string) => number,
): string {
  const ranked = points.filter((p) => p.score > 0).sort((a, b) => b.score - a.score)
  const parts: string[] = []
  let used = 0
  for (const p of ranked) {
    const text = `----Analyst ${p.analyst + 1}----\nImportance Score: ${p.score}\n${p.description}`
    const cost = countTokens(`${text}\n\n`)
    if (used + cost > budget) continue
    parts.push(text)
    used += cost
  }
  return parts.join('\n\n')
}
