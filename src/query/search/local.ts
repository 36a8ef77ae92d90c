/** Local search: entity-centred context (reports, entities, relationships, claims, sources) → one answer. */
import type { Settings } from '../../config/index.js'
import type { IndexTables } from '../load-index.js'
import { communityByEntity, reportsAtLevel } from '../context/communities.js'
import { buildLocalContext, type LocalContextOptions, type LocalIndex } from '../context/local.js'
import type { SearchServices } from '../services.js'
import { answerFromContext, searchPrompt } from './offline.js'
import type { QuestionInput, SearchRun } from './types.js'

export type LocalTables = Pick<
  IndexTables,
  'entities' | 'relationships' | 'communities' | 'community_reports' | 'text_units'
> &
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
    communityByEntity: communityByEntity(selected, tables.communities),
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
  return yield* answerFromContext(
    { records: context.records, text: context.text },
    searchPrompt('local', settings.prompt),
    input,
    services.chat,
  )
}
