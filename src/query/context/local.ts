/**
 * The local-search context: [history] + Reports + Entities/Relationships/Claims + Sources under
 * one token budget split by community_prop and text_unit_prop. Unlike the reference, budget a
 * section leaves unused flows on to the next one (reports → entities → sources).
 */
import type { CovariateRow, EntityRow, TextUnitRow } from '../../model/index.js'
import type { IndexRelationship, IndexReport } from '../load-index.js'
import type { SearchServices } from '../services.js'
import { claimRecord } from './claims.js'
import { entityRecord, mapQueryToEntities } from './entities.js'
import { buildEntitySection } from './entity-section.js'
import { HISTORY_BUDGET_SHARE, historyBlock, recentQuestions, type ConversationTurn } from './history.js'
import { rankReportsForEntities, reportRecord, reportTable } from './reports.js'
import { relationshipRecord } from './relationships.js'
import { plainRecord, type ContextRecords } from './table-format.js'
import { rankTextUnits, sourceRecord, sourceTable } from './text-units.js'

export interface LocalContextOptions {
  textUnitProp: number
  communityProp: number
  topKEntities: number
  topKRelationships: number
  maxContextTokens: number
  historyMaxTurns: number
}

/** The index, shaped for local context building (see prepareLocalIndex in search/local.ts). */
export interface LocalIndex {
  entities: readonly EntityRow[]
  relationships: readonly IndexRelationship[]
  covariates: readonly CovariateRow[]
  textUnitsById: ReadonlyMap<string, TextUnitRow>
  reportsByCommunity: ReadonlyMap<number, IndexReport>
  /** Entity id → the one selected community covering it (see communities.ts). */
  communityByEntity: ReadonlyMap<string, number>
}

export interface BuiltContext {
  text: string
  records: ContextRecords
  /** Matched entities, nearest first (also those that did not fit the table). */
  entities: EntityRow[]
}

/** Tokens reserved for the blank lines joining sections. */
const SEPARATOR_TOKENS = 4

export async function buildLocalContext(
  query: string,
  history: readonly ConversationTurn[],
  index: LocalIndex,
  options: LocalContextOptions,
  services: SearchServices,
): Promise<BuiltContext> {
  const count = services.countTokens
  const hist = historyBlock(
    history,
    options.historyMaxTurns,
    Math.floor(options.maxContextTokens * HISTORY_BUDGET_SHARE),
    count,
  )
  const total = options.maxContextTokens - hist.tokens - SEPARATOR_TOKENS
  const mappingText = [query, ...recentQuestions(history, options.historyMaxTurns)].join('\n')
  const selected = await mapQueryToEntities({
    text: mappingText,
    k: options.topKEntities,
    entities: index.entities,
    vectors: services.vectors,
    embedder: services.embedder,
    meter: services.meter,
  })

  services.logger.debug(`local context: mapped ${selected.map((e) => e.title).join(', ') || 'no entities'}`)
  let budget = Math.floor(total * options.communityProp)
  const reports = reportTable(
    rankReportsForEntities(selected, index.communityByEntity, index.reportsByCommunity),
    budget,
    count,
  )
  budget += Math.floor(total * (1 - options.communityProp - options.textUnitProp)) - reports.tokens
  const section = buildEntitySection(
    selected,
    index.relationships,
    index.covariates,
    options.topKRelationships,
    budget,
    count,
  )
  const { entities: ents, relationships: rels, claims } = section
  budget += Math.floor(total * options.textUnitProp) - section.tokens
  const sources = sourceTable(
    rankTextUnits(ents.kept.length > 0 ? ents.kept : selected, index.textUnitsById, index.relationships),
    budget,
    count,
  )

  const sections = [hist.text, reports.text, ents.text, rels.text, claims.text, sources.text].filter((s) => s !== '')
  const records: ContextRecords = {}
  if (hist.records.length > 0) records['conversation history'] = hist.records
  if (reports.kept.length > 0) records.reports = reports.kept.map((r) => plainRecord(reportRecord(r)))
  if (ents.kept.length > 0) records.entities = ents.kept.map((e) => plainRecord(entityRecord(e)))
  if (rels.kept.length > 0) records.relationships = rels.kept.map((r) => plainRecord(relationshipRecord(r)))
  if (claims.kept.length > 0) records.claims = claims.kept.map((c) => plainRecord(claimRecord(c)))
  records.sources = sources.kept.map((u) => plainRecord(sourceRecord(u)))
  return { text: sections.map((s) => s.replace(/\n$/, '')).join('\n\n'), records, entities: selected }
}
