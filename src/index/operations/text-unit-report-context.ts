/**
 * The text-unit context of create_community_reports_text (spec reference-index.md §5.12): a
 * community's text units ranked by the summed degree of its member entities found in them, as a
 * `-----SOURCES-----` CSV trimmed to the token budget. Unlike the reference, unit 0 is kept.
 */
import type { CommunityRow } from '../../model/communities.js'
import type { EntityRow } from '../../model/entities.js'
import type { TextUnitRow } from '../../model/text-units.js'
import { topicalExcerpt } from '../../text/excerpt.js'
import { type ContextSection, renderContextSection } from './community-reports/context-rows.js'

export interface TextUnitContextInput {
  readonly communities: readonly CommunityRow[]
  readonly entities: readonly (Pick<EntityRow, 'id' | 'degree' | 'text_unit_ids'> & { readonly title?: string })[]
  readonly textUnits: readonly Pick<TextUnitRow, 'id' | 'human_readable_id' | 'text'>[]
}

export interface TextUnitRecord {
  /** The text unit's id (what names it in every index generation). */
  readonly unit: string
  /** The text unit's human_readable_id. */
  readonly id: number
  readonly text: string
  /** Sum of the degrees of the community's entities that occur in this unit. */
  readonly entity_degree: number
}

export interface TextUnitContext {
  readonly community: number
  readonly level: number
  /** Empty when the community has no text units. */
  readonly text: string
  /** The rows `text` was rendered from (none when it is empty). */
  readonly sections: readonly ContextSection[]
  readonly records: number
}

const COLUMNS = ['id', 'text', 'entity_degree'] as const

/** The SOURCES section of `records`, as typed rows. */
export function sourcesSection(records: readonly TextUnitRecord[]): ContextSection {
  return {
    label: 'SOURCES',
    columns: COLUMNS,
    rows: records.map((r) => ({
      table: 'Sources',
      id: r.id,
      identity: r.unit,
      fields: [r.text],
      degree: r.entity_degree,
    })),
  }
}

export function renderSources(records: readonly TextUnitRecord[]): string {
  return renderContextSection(sourcesSection(records))
}

/** Records of one community, most central first (ties keep the community's unit order), without duplicates. */
function textUnitRecords(
  community: Pick<CommunityRow, 'entity_ids' | 'text_unit_ids'>,
  entityById: ReadonlyMap<string, Pick<EntityRow, 'degree' | 'text_unit_ids'>>,
  unitById: ReadonlyMap<string, Pick<TextUnitRow, 'human_readable_id' | 'text'>>,
): TextUnitRecord[] {
  const units = new Set(community.text_unit_ids)
  const degreeOf = new Map<string, number>()
  for (const id of community.entity_ids) {
    const member = entityById.get(id)
    if (member === undefined) continue
    for (const unitId of new Set(member.text_unit_ids)) {
      if (units.has(unitId)) degreeOf.set(unitId, (degreeOf.get(unitId) ?? 0) + member.degree)
    }
  }
  const records: TextUnitRecord[] = []
  for (const unitId of units) {
    const unit = unitById.get(unitId)
    if (unit === undefined) continue
    records.push({
      unit: unitId,
      id: unit.human_readable_id,
      text: unit.text,
      entity_degree: degreeOf.get(unitId) ?? 0,
    })
  }
  return records.sort((a, b) => b.entity_degree - a.entity_degree)
}

/**
 * The records, or when over `maxTokens` the longest prefix that fits (the full list when not even
 * one record fits, as the reference does).
 */
function fitRecords(
  records: readonly TextUnitRecord[],
  maxTokens: number,
  countTokens: (text: string) => number,
): readonly TextUnitRecord[] {
  if (countTokens(renderSources(records)) <= maxTokens) return records
  let fitted = 0
  for (let n = 1; n <= records.length; n++) {
    if (countTokens(renderSources(records.slice(0, n))) > maxTokens) break
    fitted = n
  }
  return fitted === 0 ? records : records.slice(0, fitted)
}

/** Members whose names make up the topic of a community's excerpts (the most connected ones). */
const TOPIC_MEMBERS = 30

/**
 * Each record's text cut to its sentences naming most of the community's best-connected members,
 * up to `unitTokens`: a report then reads many of its community's units instead of the first few whole.
 */
function excerptRecords(
  records: readonly TextUnitRecord[],
  members: readonly { readonly degree: number; readonly title?: string }[],
  unitTokens: number,
  countTokens: (text: string) => number,
): TextUnitRecord[] {
  const topic = [...members]
    .sort((a, b) => b.degree - a.degree)
    .slice(0, TOPIC_MEMBERS)
    .map((m) => m.title ?? '')
    .join(' ')
  return records.map((r) => ({ ...r, text: topicalExcerpt(r.text, topic, unitTokens, countTokens) }))
}

/**
 * One context per community, in the communities' order. With `excerptTokens`, each unit shows only
 * its sentences most about the community, up to that many tokens (the fast method's cheap reports).
 */
export function buildTextUnitContexts(
  input: TextUnitContextInput,
  maxTokens: number,
  countTokens: (text: string) => number,
  excerptTokens?: number,
): TextUnitContext[] {
  const entityById = new Map(input.entities.map((e) => [e.id, e]))
  const unitById = new Map(input.textUnits.map((u) => [u.id, u]))
  return input.communities.map((c) => {
    const whole = textUnitRecords(c, entityById, unitById)
    const members = c.entity_ids.flatMap((id) => entityById.get(id) ?? [])
    const records = excerptTokens === undefined ? whole : excerptRecords(whole, members, excerptTokens, countTokens)
    const sections = records.length === 0 ? [] : [sourcesSection(fitRecords(records, maxTokens, countTokens))]
    const text = sections.length === 0 ? '' : renderContextSection(sections[0]!)
    return { community: c.community, level: c.level, text, sections, records: records.length }
  })
}
