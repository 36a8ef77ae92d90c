/**
 * Graph extraction over text units (spec §5.4): one conversation per unit, concurrently; every
 * reply parsed on its own; results merged. A unit whose calls fail after retries is reported as a
 * failure instead of silently contributing nothing.
 */
import { LlmError } from '../../../errors.js'
import { pythonStrip } from '../../../text/names.js'
import { formatPrompt } from '../../../prompts/prompt-template.js'
import type { ChatModel } from '../../../llm/types.js'
import type { BaseTextUnitRow } from '../../../model/text-units.js'
import { mapBounded } from './bounded-map.js'
import { runGleanings } from './gleaning.js'
import { mergeExtractions, type MergedGraph, type UnitExtraction } from './merge.js'
import { parseGraphReply, type DroppedRecord } from './parse.js'

export interface ExtractGraphOptions {
  /** The extraction template ({entity_types}, {input_text}). */
  prompt: string
  continuationPrompt: string
  loopPrompt: string
  entityTypes: readonly string[]
  maxGleanings: number
  /** Units in flight at once (the model layer still enforces its own request limit). */
  concurrency: number
}

export interface ExtractionServices {
  chat: ChatModel
  signal?: AbortSignal
  /** Called once per finished text unit (progress). */
  onUnitDone?: () => void
}

export interface UnitFailure {
  textUnitId: string
  reason: string
  error: LlmError
}

export interface ExtractGraphResult extends MergedGraph {
  attempted: number
  failures: UnitFailure[]
  calls: number
  /** Record-like text that could not be parsed, in unit order. */
  dropped: DroppedRecord[]
  defaultedWeights: number
  /** The first reply received, for the "no entities" error. */
  sampleReply: string | undefined
}

type UnitText = Pick<BaseTextUnitRow, 'id' | 'text'>

type UnitOutcome =
  | {
      ok: true
      extraction: UnitExtraction
      /** Only the first reply is kept (for the "no entities" error): all of them would hold every reply to the end. */
      firstReply: string | undefined
      calls: number
      dropped: DroppedRecord[]
      defaultedWeights: number
    }
  | { ok: false; failure: UnitFailure }

export async function extractGraph(
  units: readonly UnitText[],
  options: ExtractGraphOptions,
  services: ExtractionServices,
): Promise<ExtractGraphResult> {
  const outcomes = await mapBounded(units, options.concurrency, async (unit) => {
    const outcome = await extractUnit(unit, options, services)
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
    defaultedWeights: done.reduce((n, o) => n + o.defaultedWeights, 0),
    sampleReply: done.find((o) => o.firstReply !== undefined)?.firstReply,
  }
}

async function extractUnit(
  unit: UnitText,
  options: ExtractGraphOptions,
  services: ExtractionServices,
): Promise<UnitOutcome> {
  const first = formatPrompt(options.prompt, {
    entity_types: options.entityTypes.join(','),
    input_text: pythonStrip(unit.text),
  })
  const prompts = { first, continuation: options.continuationPrompt, loopCheck: options.loopPrompt }
  try {
    const hasRecords = (reply: string) => {
      const parsed = parseGraphReply(reply)
      return parsed.entities.length + parsed.relationships.length > 0
    }
    const conversation = await runGleanings(services.chat, prompts, options.maxGleanings, hasRecords, services.signal)
    const parsed = conversation.replies.map(parseGraphReply)
    return {
      ok: true,
      extraction: {
        textUnitId: unit.id,
        entities: parsed.flatMap((p) => p.entities),
        relationships: parsed.flatMap((p) => p.relationships),
      },
      firstReply: conversation.replies[0],
      calls: conversation.calls,
      dropped: parsed.flatMap((p) => p.dropped),
      defaultedWeights: parsed.reduce((n, p) => n + p.defaultedWeights, 0),
    }
  } catch (error) {
    if (!(error instanceof LlmError)) throw error
    return { ok: false, failure: { textUnitId: unit.id, reason: error.message, error } }
  }
}
