/**
 * Replays the real answers behind a reference index (Christmas Carol by default, or Operation Dulce):
 * per text unit its entities, relationships and claims, and per community its report. Strengths are
 * deterministic per (unit, relationship) and exposed through `replayExpectations()` so tests can
 * compute weights.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import {
  COMMUNITIES,
  COMMUNITY_REPORTS,
  COVARIATES,
  ENTITIES,
  RELATIONSHIPS,
  TEXT_UNITS,
} from '../../../src/model/index.js'
import type { TableSchema } from '../../../src/model/schema.js'
import { decodeParquet } from '../../../src/storage/parquet.js'
import { SHARED_DIR } from '../shared.js'
import type { ChatMessageLike, PromptKind } from './classify.js'
import { hashUnit, type Responder } from './responders.js'

interface ReplayEntity {
  title: string
  type: string
  description: string
}

interface ReplayRelationship {
  source: string
  target: string
  description: string
  strength: number
}

interface ReplayClaim {
  subject: string
  object: string
  type: string
  status: string
  startDate: string
  endDate: string
  description: string
  sourceText: string
}

/**
 * What the replay responder sends for one text unit. Graph records past `firstReplyRecords` and
 * claims past `firstReplyClaims` come in the first gleaning reply, as a model that missed some would.
 */
export interface ReplayUnit {
  textUnitId: string
  text: string
  entities: ReplayEntity[]
  relationships: ReplayRelationship[]
  claims: ReplayClaim[]
  firstReplyRecords: number
  firstReplyClaims: number
}

interface ReplayData {
  units: ReplayUnit[]
  /** A distinctive slice from the middle of each unit's text, used to recognise it inside a prompt. */
  needles: string[]
  entityDescriptions: Map<string, string>
  relationshipDescriptions: Map<string, string>
  communities: Array<{ titles: string[]; report: string }>
}

/** A folder of ../shared/reference holding a complete index. */
export type ReplayDataset = 'christmas-carol-index' | 'msgr-v3-dulce'

const loaded = new Map<ReplayDataset, ReplayData>()

/** One line per record, as real models write them. */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, ' ').trim()
}

/**
 * What one text unit says about an item that the reference saw in `units` text units: a share of
 * the sentences of its final (summarised) description, as a model reading only that unit would
 * write. Items described differently in several units then go through description summarisation,
 * as they do with a real model (the summary prompt is answered with the reference description).
 */
function fragment(description: string, position: number, units: number): string {
  const text = oneLine(description)
  if (units < 2) return text
  const sentences = (text.match(/[^.!?]+(?:[.!?]+|$)/g) ?? [text]).map((x) => x.trim()).filter((x) => x !== '')
  if (sentences.length < 2) return text
  if (sentences.length < units) return sentences[position % sentences.length]!
  const start = Math.floor((position * sentences.length) / units)
  const end = Math.floor(((position + 1) * sentences.length) / units)
  return sentences.slice(start, end).join(' ')
}

/** Position of a text unit among the distinct units an item appears in, and their count. */
function unitPosition(textUnitIds: readonly string[], id: string): [number, number] {
  const distinct = [...new Set(textUnitIds)]
  return [distinct.indexOf(id), distinct.length]
}

function load(dataset: ReplayDataset): ReplayData {
  const cached = loaded.get(dataset)
  if (cached !== undefined) return cached
  const read = <S extends TableSchema>(schema: S, file: string) => {
    if (SHARED_DIR === undefined) throw new Error(`replay needs ../shared/reference/${dataset}`)
    const path = join(SHARED_DIR, 'reference', dataset, file)
    return decodeParquet(schema, readFileSync(path), path)
  }
  const textUnits = read(TEXT_UNITS, 'text_units.parquet')
  const entities = read(ENTITIES, 'entities.parquet')
  const relationships = read(RELATIONSHIPS, 'relationships.parquet')
  const covariates = read(COVARIATES, 'covariates.parquet')
  const known = new Set(entities.map((e) => e.title))
  const units = textUnits.map((tu): ReplayUnit => {
    const unitEntities = entities
      .filter((e) => e.text_unit_ids.includes(tu.id))
      .map((e) => ({
        title: e.title,
        type: e.type,
        description: fragment(e.description, ...unitPosition(e.text_unit_ids, tu.id)),
      }))
    const unitRelationships = relationships
      .filter((r) => r.text_unit_ids.includes(tu.id) && known.has(r.source) && known.has(r.target))
      .map((r) => ({
        source: r.source,
        target: r.target,
        description: fragment(r.description, ...unitPosition(r.text_unit_ids, tu.id)),
        strength: 1 + Math.floor(hashUnit(`${tu.id}|${r.source}|${r.target}`) * 10),
      }))
    const claims = covariates
      .filter((c) => c.text_unit_id === tu.id)
      .map((c) => ({
        subject: c.subject_id ?? 'NONE',
        object: c.object_id ?? 'NONE',
        type: c.type ?? 'NONE',
        status: c.status ?? 'SUSPECTED',
        startDate: c.start_date ?? 'NONE',
        endDate: c.end_date ?? 'NONE',
        description: oneLine(c.description ?? ''),
        sourceText: oneLine(c.source_text ?? ''),
      }))
    const total = unitEntities.length + unitRelationships.length
    return {
      textUnitId: tu.id,
      text: tu.text,
      entities: unitEntities,
      relationships: unitRelationships,
      claims,
      firstReplyRecords: Math.ceil((total * 2) / 3),
      firstReplyClaims: Math.ceil((claims.length * 2) / 3),
    }
  })
  const needles = textUnits.map((tu) => {
    const body = tu.text.trim()
    const mid = Math.floor(body.length / 2)
    return body.slice(Math.max(0, mid - 120), mid + 120)
  })
  const titleById = new Map(entities.map((e) => [e.id, e.title]))
  const reports = read(COMMUNITY_REPORTS, 'community_reports.parquet')
  const communities = read(COMMUNITIES, 'communities.parquet').flatMap((c) => {
    const r = reports.find((x) => x.community === c.community)
    if (r === undefined) return []
    const report = {
      title: r.title,
      summary: r.summary,
      rating: r.rank,
      rating_explanation: r.rating_explanation,
      findings: r.findings.map((f) => ({ summary: f.summary, explanation: f.explanation })),
    }
    return [
      {
        titles: c.entity_ids.map((id) => titleById.get(id) ?? '').filter((t) => t !== ''),
        report: JSON.stringify(report),
      },
    ]
  })
  const data = {
    units,
    needles,
    entityDescriptions: new Map(entities.map((e) => [e.title, e.description])),
    relationshipDescriptions: new Map(relationships.map((r) => [`${r.source}\u0000${r.target}`, r.description])),
    communities,
  }
  loaded.set(dataset, data)
  return data
}

/** Per text unit id: the entities, relationships (with the strengths sent) and claims the replay answers with. */
export function replayExpectations(dataset: ReplayDataset = 'christmas-carol-index'): Record<string, ReplayUnit> {
  return Object.fromEntries(load(dataset).units.map((u) => [u.textUnitId, u]))
}

function findUnit(data: ReplayData, text: string): ReplayUnit | undefined {
  const i = data.needles.findIndex((needle) => needle !== '' && text.includes(needle))
  return i >= 0 ? data.units[i] : undefined
}

function graphRecords(unit: ReplayUnit): string[] {
  return [
    ...unit.entities.map((e) => `("entity"<|>${e.title}<|>${e.type}<|>${e.description})`),
    ...unit.relationships.map((r) => `("relationship"<|>${r.source}<|>${r.target}<|>${r.description}<|>${r.strength})`),
  ]
}

function claimRecords(unit: ReplayUnit): string[] {
  return unit.claims.map(
    (c) =>
      `(${c.subject}<|>${c.object}<|>${c.type}<|>${c.status}<|>${c.startDate}<|>${c.endDate}<|>${c.description}<|>${c.sourceText})`,
  )
}

function withComplete(records: readonly string[]): string {
  return records.length === 0 ? '<|COMPLETE|>' : `${records.join('\n##\n')}\n<|COMPLETE|>`
}

/** Extraction replies already given in the conversation (assistant turns that are not Y/N answers). */
function extractionTurns(messages: readonly ChatMessageLike[]): number {
  return messages.filter((m) => m.role === 'assistant' && !/^\s*[YN]\s*$/i.test(m.content)).length
}

function bestCommunity(data: ReplayData, text: string, caseSensitive: boolean): string | undefined {
  const haystack = caseSensitive ? text : text.toUpperCase()
  // Search each title once, then score communities by membership.
  const present = new Set([...data.entityDescriptions.keys()].filter((t) => haystack.includes(t)))
  let best: { score: number; size: number; report: string } | undefined
  for (const c of data.communities) {
    if (c.titles.length === 0) continue
    const found = c.titles.filter((t) => present.has(t)).length
    const score = found / c.titles.length
    if (
      found > 0 &&
      (best === undefined || score > best.score || (score === best.score && c.titles.length > best.size))
    ) {
      best = { score, size: c.titles.length, report: c.report }
    }
  }
  return best?.report
}

function summary(data: ReplayData, text: string): string | undefined {
  const subject = /#\s*Subject\s*\n([\s\S]*?)\n\s*(?:\(|#)/.exec(text)?.[1]?.trim()
  if (subject === undefined) return undefined
  const direct = data.entityDescriptions.get(subject.replace(/^["']|["']$/g, ''))
  if (direct !== undefined) return direct
  // A relationship is named by a JSON array ["SOURCE", "TARGET"]; names may contain apostrophes.
  const names = parseNames(subject)
  if (names === undefined) return undefined
  return (
    data.relationshipDescriptions.get(`${names[0]}\u0000${names[1]}`) ??
    data.relationshipDescriptions.get(`${names[1]}\u0000${names[0]}`)
  )
}

function parseNames(subject: string): [string, string] | undefined {
  try {
    const value: unknown = JSON.parse(subject)
    return Array.isArray(value) && value.length === 2 && value.every((v) => typeof v === 'string')
      ? [value[0], value[1]]
      : undefined
  } catch {
    return undefined
  }
}

/** The replay responder for `dataset`: answers from the reference index, or defers to the built-in ones. */
export function replayResponder(dataset: ReplayDataset): Responder {
  return ({ kind, messages }) => replay(load(dataset), kind, messages)
}

export const REPLAY_RESPONDER: Responder = replayResponder('christmas-carol-index')

function replay(data: ReplayData, kind: PromptKind, messages: readonly ChatMessageLike[]): string | undefined {
  const first = messages.find((m) => m.role === 'user')?.content ?? ''
  switch (kind) {
    case 'extract_graph': {
      const unit = findUnit(data, first)
      return unit === undefined ? undefined : withComplete(graphRecords(unit).slice(0, unit.firstReplyRecords))
    }
    case 'extract_graph_continue': {
      const unit = findUnit(data, first)
      if (unit === undefined) return undefined
      return extractionTurns(messages) === 1
        ? withComplete(graphRecords(unit).slice(unit.firstReplyRecords))
        : '<|COMPLETE|>'
    }
    case 'extract_claims': {
      const unit = findUnit(data, first)
      return unit === undefined ? undefined : withComplete(claimRecords(unit).slice(0, unit.firstReplyClaims))
    }
    case 'extract_claims_continue': {
      const unit = findUnit(data, first)
      if (unit === undefined) return undefined
      return extractionTurns(messages) === 1
        ? withComplete(claimRecords(unit).slice(unit.firstReplyClaims))
        : '<|COMPLETE|>'
    }
    case 'summarize_descriptions':
      return summary(data, first)
    case 'community_report':
      return bestCommunity(data, first, true)
    case 'community_report_text':
      return bestCommunity(data, first, false)
    default:
      return undefined
  }
}
