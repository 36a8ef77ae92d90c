/** Local search: entity-centred context (reports, entities, relationships, claims, sources) → one answer. */
import type { Settings } from '../../config/index.js'
import { loadPrompt, formatPrompt } from '../../llm/prompt-template.js'
import type { IndexTables } from '../load-index.js'
import { communitiesByEntity, reportsAtLevel } from '../context/communities.js'
import { buildLocalContext, type LocalContextOptions, type LocalIndex } from '../context/local.js'
import type { SearchServices } from '../services.js'
import { offlineAnswer } from './offline.js'
import type { QuestionInput, SearchRun } from './types.js'

export type LocalTables = Pick<IndexTables, 'entities' | 'relationships' | 'communities' | 'community_reports' | 'text_units'> &
  Partial<Pick<IndexTables, 'covariates'>>

/** Indexes the tables once for context building; entities in no community are kept. */
export function prepareLocalIndex(tables: LocalTables, communityLevel: number): LocalIndex {
  const selected = reportsAtLevel(tables.community_reports, tables.communities, communityLevel)
  return {
    entities: tables.entities,
    relationships: tables.relationships,
    covariates: tables.covariates ?? [],
    textUnitsById: new Map(tables.text_units.map((u) => [u.id, u])),
    reportsByCommunity: new Map(selected.map((r) => [r.community, r])),
    communitiesByEntity: communitiesByEntity(selected, tables.communities),
  }
}

function localContextOptions(s: Settings['local_search']): LocalContextOptions {
  return {
    textUnitProp: s.text_unit_prop,
    communityProp: s.community_prop,
    topKEntities: s.top_k_entities,
    topKRelationships: s.top_k_relationships,
    maxContextTokens: s.max_context_tokens,
    historyMaxTurns: s.conversation_history_max_turns,
  }
}

export async function* runLocalSearch(
  input: QuestionInput,
  index: LocalIndex,
  settings: Settings['local_search'],
  services: SearchServices,
): SearchRun {
  const context = await buildLocalContext(input.query, input.history, index, localContextOptions(settings), services)
  const result = { records: context.records, text: context.text }
  if (services.chat === undefined) {
    yield offlineAnswer(context.records, 'local_search.completion_model_id')
    return result
  }
  const template = loadPrompt(settings.prompt, 'local_search_system_prompt.txt', 'local_search.prompt')
  const system = formatPrompt(template, { context_data: context.text, response_type: input.responseType })
  yield* services.chat.stream('response', {
    messages: [
      { role: 'system', content: system },
      { role: 'user', content: input.query },
    ],
  })
  return result
}
