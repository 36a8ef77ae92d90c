/**
 * Graph extraction over text units (spec §5.4): one conversation per unit, concurrently; every
 * reply read on its own (read-reply.ts); results merged. A unit whose calls fail after retries, or
 * whose first reply is unusable (a refusal, a non-answer, an echo of the prompt's examples) even
 * when asked again once, is reported as a failure instead of silently contributing nothing.
 */
import { pythonStrip } from '../../../text/names.js'
import { formatPrompt } from '../../../prompts/prompt-template.js'
import type { ChatModel } from '../../../llm/types.js'
import type { BaseTextUnitRow } from '../../../model/text-units.js'
import { mapBounded } from '../../../storage/bounded-map.js'
import { capUnitRecords, type ChunkCaps } from './caps.js'
import { converseForUnit, type UnitFailure } from './gleaning.js'
import { mergeExtractions, type MergedGraph, type UnitExtraction } from './merge.js'
import type { DroppedRecord } from './parse.js'
import { readGraphReply } from './read-reply.js'
import { type Answer, replayUnitRecord, saveUnitRecord, type UnitRecords, type UnitResult } from './unit-records.js'

/** Sent once after an unusable first reply. */
const RETRY_PROMPT =
  'Your answer did not contain the requested records. Answer again with only the entity and relationship ' +
  'records found in the text above, in exactly the format the first message asks for.'

export interface ExtractGraphOptions {
  /** The extraction template ({entity_types}, {input_text}). */
  prompt: string
  continuationPrompt: string
  loopPrompt: string
  entityTypes: readonly string[]
  maxGleanings: number
  /** Units in flight at once (the model layer still enforces its own request limit). */
  concurrency: number
  /** A reply still blank after its retries reads as no records (false: the unit fails). */
  blankAsEmpty: boolean
  /** Per-unit caps (caps.ts); absent = none. */
  caps?: ChunkCaps
}

export interface ExtractionServices {
  chat: ChatModel
  signal?: AbortSignal
  /** Called once per finished text unit (progress). */
  onUnitDone?: () => void
  /** Where each unit's outcome is kept and replayed from (unit-records.ts); absent: neither. */
  records?: UnitRecords
}

export interface ExtractGraphResult extends MergedGraph {
  attempted: number
  failures: UnitFailure[]
  calls: number
  /** Record-like text that could not be parsed, in unit order. */
  dropped: DroppedRecord[]
  /** How many replies held record-like text that could not be parsed. */
  unreadableReplies: number
  defaultedWeights: number
  /** The records of the relationships kept with weight 1, for the log. */
  weightless: string[]
  /** First replies that were unusable and asked again (the unit then succeeded or failed). */
  retriedReplies: Array<{ textUnitId: string; problem: string }>
  /** The first reply received, for the "no entities" error. */
  sampleReply: string | undefined
  /** The text unit of each reply still blank after its retries (read as no records). */
  emptyReplies: string[]
  /** Each successful unit's records after the caps, in unit order (for extraction_results.json). */
  units: UnitExtraction[]
  /** Distinct entities and relationships left out by the per-unit caps, summed over units. */
  capped: { entities: number; relationships: number }
  /** Units whose recorded outcome was replayed (unit-records.ts) rather than read from their replies. */
  replayed: number
}

type UnitText = Pick<BaseTextUnitRow, 'id' | 'text'>

type UnitOutcome = ({ ok: true; replayed?: true } & UnitResult) | { ok: false; failure: UnitFailure; retried: string[] }

export async function extractGraph(
  units: readonly UnitText[],
  options: ExtractGraphOptions,
  services: ExtractionServices,
): Promise<ExtractGraphResult> {
  const outcomes = await mapBounded(units, options.concurrency, async (unit) => {
    const outcome = await recordedUnit(unit, options, services)
    services.onUnitDone?.()
    return outcome
  })
  const done = outcomes.flatMap((o) => (o.ok ? [o] : []))
  return {
    ...mergeExtractions(done.map((o) => o.extraction)),
    attempted: units.length,
    failures: outcomes.flatMap((o) => (o.ok ? [] : [o.failure])),
    calls: done.reduce((n, o) => n + o.calls, 0),
    dropped: done.flatMap((o) => o.dropped),
    unreadableReplies: done.reduce((n, o) => n + o.unreadableReplies, 0),
    defaultedWeights: done.reduce((n, o) => n + o.defaultedWeights, 0),
    weightless: done.flatMap((o) => o.weightless),
    retriedReplies: units.flatMap((unit, i) =>
      outcomes[i]!.retried.map((problem) => ({ textUnitId: unit.id, problem })),
    ),
    sampleReply: done.find((o) => o.firstReply !== undefined)?.firstReply,
    emptyReplies: emptyRepliesOf(units, outcomes),
    units: done.map((o) => o.extraction),
    capped: {
      entities: done.reduce((n, o) => n + o.capped.entities, 0),
      relationships: done.reduce((n, o) => n + o.capped.relationships, 0),
    },
    replayed: done.filter((o) => o.replayed === true).length,
  }
}

/** The unit's recorded outcome when it replays, else its conversation (then recorded). */
async function recordedUnit(
  unit: UnitText,
  options: ExtractGraphOptions,
  services: ExtractionServices,
): Promise<UnitOutcome> {
  const { records } = services
  if (records === undefined) return (await extractUnit(unit, options, services)).outcome
  const replayed = await replayUnitRecord(records, unit)
  if (replayed !== undefined) return { ok: true, replayed: true, ...replayed }
  const { outcome, answers } = await extractUnit(unit, options, services)
  if (outcome.ok) await saveUnitRecord(records, unit, outcome, answers)
  return outcome
}

async function extractUnit(
  unit: UnitText,
  options: ExtractGraphOptions,
  services: ExtractionServices,
): Promise<{ outcome: UnitOutcome; answers: readonly Answer[] }> {
  const first = formatPrompt(options.prompt, {
    entity_types: options.entityTypes.join(','),
    input_text: pythonStrip(unit.text),
  })
  const prompts = { first, continuation: options.continuationPrompt, loopCheck: options.loopPrompt }
  const context = { template: options.prompt, inputText: unit.text, entityTypes: options.entityTypes }
  const read = (reply: string) => readGraphReply(reply, context)
  const hasRecords = (reply: string) => {
    const parsed = read(reply)
    return parsed.entities.length + parsed.relationships.length > 0
  }
  const check = { problem: (reply: string) => read(reply).unusable, retryPrompt: RETRY_PROMPT }
  const run = {
    prompts,
    maxGleanings: options.maxGleanings,
    hasRecords,
    check,
    blankAsEmpty: options.blankAsEmpty,
    ...signalOf(services),
  }
  const outcome = await converseForUnit(unit.id, services.chat, run)
  if (!outcome.ok) return { outcome, answers: [] }
  const { conversation, retried } = outcome
  const parsed = conversation.replies.map(read)
  const capped = capUnitRecords(
    parsed.flatMap((p) => p.entities),
    parsed.flatMap((p) => p.relationships),
    options.caps ?? { maxEntities: 0, maxRelationships: 0 },
  )
  const success: UnitOutcome = {
    ok: true,
    extraction: { textUnitId: unit.id, entities: capped.entities, relationships: capped.relationships },
    capped: { entities: capped.cappedEntities, relationships: capped.cappedRelationships },
    firstReply: conversation.replies[0],
    calls: conversation.calls,
    dropped: parsed.flatMap((p) => p.dropped),
    unreadableReplies: parsed.filter((p) => p.dropped.length > 0).length,
    defaultedWeights: parsed.reduce((n, p) => n + p.defaultedWeights, 0),
    weightless: parsed.flatMap((p) => p.weightless ?? []),
    retried,
    blank: conversation.blank,
  }
  return { outcome: success, answers: conversation.answers }
}

/** One entry per blank reply, naming its text unit: failed units have none. */
export function emptyRepliesOf(
  units: readonly { id: string }[],
  outcomes: ReadonlyArray<{ ok: true; blank: number } | { ok: false }>,
): string[] {
  return units.flatMap((unit, i) => {
    const o = outcomes[i]!
    return o.ok ? Array.from({ length: o.blank }, () => unit.id) : []
  })
}

/** The services' abort signal as an optional property (absent rather than undefined). */
export function signalOf(services: ExtractionServices): { signal?: AbortSignal } {
  return services.signal ? { signal: services.signal } : {}
}
