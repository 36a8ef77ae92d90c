/**
 * Claim extraction over text units (spec §5.8): one conversation per unit with gleanings, every
 * reply parsed and merged (the reference discards gleaning replies), deterministic ids. A first
 * reply that is unusable (refusal, prose, echo of the examples, unfinished thinking) is asked again
 * once; unusable again, the unit is a failure counted against the budget, never read as "no claims".
 */
import { pythonStrip } from '../../../text/names.js'
import { formatPrompt } from '../../../prompts/prompt-template.js'
import type { CovariateRow } from '../../../model/covariates.js'
import type { BaseTextUnitRow } from '../../../model/text-units.js'
import { mapBounded } from '../../../storage/bounded-map.js'
import { emptyRepliesOf, type ExtractionServices, signalOf } from '../extract-graph/extract.js'
import { converseForUnit, type UnitFailure } from '../extract-graph/gleaning.js'
import type { DroppedRecord } from '../extract-graph/parse.js'
import { covariateId } from '../graph-ids.js'
import { type ParsedClaim, readClaimReply } from './parse.js'

export interface ExtractClaimsOptions {
  /** The template ({entity_specs}, {claim_description}, {input_text}). */
  prompt: string
  continuationPrompt: string
  loopPrompt: string
  entityTypes: readonly string[]
  claimDescription: string
  maxGleanings: number
  concurrency: number
  /** A reply still blank after its retries reads as no claims (false: the unit fails). */
  blankAsEmpty: boolean
}

export interface ExtractClaimsResult {
  rows: CovariateRow[]
  attempted: number
  failures: UnitFailure[]
  calls: number
  dropped: DroppedRecord[]
  /** Replies holding at least one unreadable claim. */
  unreadableReplies: number
  /** First replies that were unusable and asked again (the unit then succeeded or failed). */
  retriedReplies: Array<{ textUnitId: string; problem: string }>
  /** The text unit of each reply still blank after its retries (read as no claims). */
  emptyReplies: string[]
}

/** Sent once after an unusable first reply. */
const RETRY_PROMPT =
  'Your answer did not contain the requested claims. Answer again with only the claim records found in the ' +
  'text above, in exactly the format the first message asks for, or only the completion marker if there are none.'

type UnitText = Pick<BaseTextUnitRow, 'id' | 'text'>
type UnitOutcome =
  | {
      ok: true
      claims: ParsedClaim[]
      calls: number
      dropped: DroppedRecord[]
      unreadable: number
      retried: string[]
      blank: number
    }
  | { ok: false; failure: UnitFailure; retried: string[] }

export async function extractClaims(
  units: readonly UnitText[],
  options: ExtractClaimsOptions,
  services: ExtractionServices,
): Promise<ExtractClaimsResult> {
  const outcomes = await mapBounded(units, options.concurrency, async (unit) => {
    const outcome = await extractUnit(unit, options, services)
    services.onUnitDone?.()
    return outcome
  })
  const rows: CovariateRow[] = []
  outcomes.forEach((o, i) => {
    if (!o.ok) return
    const textUnitId = units[i]!.id
    o.claims.forEach((claim, n) => {
      rows.push({
        id: covariateId(textUnitId, n),
        human_readable_id: rows.length,
        covariate_type: 'claim',
        ...claim,
        text_unit_id: textUnitId,
      })
    })
  })
  const done = outcomes.flatMap((o) => (o.ok ? [o] : []))
  return {
    rows,
    attempted: units.length,
    failures: outcomes.flatMap((o) => (o.ok ? [] : [o.failure])),
    calls: done.reduce((n, o) => n + o.calls, 0),
    dropped: done.flatMap((o) => o.dropped),
    unreadableReplies: done.reduce((n, o) => n + o.unreadable, 0),
    retriedReplies: units.flatMap((unit, i) =>
      outcomes[i]!.retried.map((problem) => ({ textUnitId: unit.id, problem })),
    ),
    emptyReplies: emptyRepliesOf(units, outcomes),
  }
}

async function extractUnit(
  unit: UnitText,
  options: ExtractClaimsOptions,
  services: ExtractionServices,
): Promise<UnitOutcome> {
  const first = formatPrompt(options.prompt, {
    entity_specs: pythonListRepr(options.entityTypes),
    claim_description: options.claimDescription,
    input_text: pythonStrip(unit.text),
  })
  const prompts = { first, continuation: options.continuationPrompt, loopCheck: options.loopPrompt }
  const context = { template: options.prompt, inputText: unit.text }
  const read = (reply: string) => readClaimReply(reply, context)
  const run = {
    prompts,
    maxGleanings: options.maxGleanings,
    hasRecords: (reply: string) => read(reply).claims.length > 0,
    check: { problem: (reply: string) => read(reply).unusable, retryPrompt: RETRY_PROMPT },
    blankAsEmpty: options.blankAsEmpty,
    ...signalOf(services),
  }
  const outcome = await converseForUnit(unit.id, services.chat, run)
  if (!outcome.ok) return outcome
  const parsed = outcome.conversation.replies.map(read)
  return {
    ok: true,
    claims: dedupe(parsed.flatMap((p) => p.claims)),
    calls: outcome.conversation.calls,
    dropped: parsed.flatMap((p) => p.dropped),
    unreadable: parsed.filter((p) => p.dropped.length > 0).length,
    retried: outcome.retried,
    blank: outcome.conversation.blank,
  }
}

/** A gleaning reply that repeats a claim adds nothing; the first occurrence is kept. */
function dedupe(claims: readonly ParsedClaim[]): ParsedClaim[] {
  const seen = new Set<string>()
  return claims.filter((c) => {
    const key = JSON.stringify([c.subject_id, c.object_id, c.type, c.status, c.start_date, c.end_date, c.description])
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
}

/** Python's list repr (`['organization', 'person']`), as the reference renders entity_specs. */
export function pythonListRepr(items: readonly string[]): string {
  const repr = (s: string) =>
    s.includes("'") && !s.includes('"') ? `"${s}"` : `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`
  return `[${items.map(repr).join(', ')}]`
}
