/**
 * Claim extraction over text units (spec §5.8): one conversation per unit with gleanings, every
 * reply parsed and merged (the reference discards gleaning replies), deterministic ids.
 */
import { LlmError } from '../../../errors.js'
import { pythonStrip } from '../../../text/names.js'
import { formatPrompt } from '../../../prompts/prompt-template.js'
import type { CovariateRow } from '../../../model/covariates.js'
import type { BaseTextUnitRow } from '../../../model/text-units.js'
import { mapBounded } from '../../../llm/bounded-map.js'
import type { ExtractionServices, UnitFailure } from '../extract-graph/extract.js'
import { runGleanings } from '../extract-graph/gleaning.js'
import type { DroppedRecord } from '../extract-graph/parse.js'
import { covariateId } from '../graph-ids.js'
import { parseClaimReply, type ParsedClaim } from './parse.js'

export interface ExtractClaimsOptions {
  /** The template ({entity_specs}, {claim_description}, {input_text}). */
  prompt: string
  continuationPrompt: string
  loopPrompt: string
  entityTypes: readonly string[]
  claimDescription: string
  maxGleanings: number
  concurrency: number
}

export interface ExtractClaimsResult {
  rows: CovariateRow[]
  attempted: number
  failures: UnitFailure[]
  calls: number
  dropped: DroppedRecord[]
}

type UnitText = Pick<BaseTextUnitRow, 'id' | 'text'>
type UnitOutcome =
  | { ok: true; claims: ParsedClaim[]; calls: number; dropped: DroppedRecord[] }
  | { ok: false; failure: UnitFailure }

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
  try {
    const hasRecords = (reply: string) => parseClaimReply(reply).claims.length > 0
    const conversation = await runGleanings(services.chat, prompts, options.maxGleanings, hasRecords, services.signal)
    const parsed = conversation.replies.map(parseClaimReply)
    return {
      ok: true,
      claims: dedupe(parsed.flatMap((p) => p.claims)),
      calls: conversation.calls,
      dropped: parsed.flatMap((p) => p.dropped),
    }
  } catch (error) {
    if (!(error instanceof LlmError)) throw error
    return { ok: false, failure: { textUnitId: unit.id, reason: error.message, error } }
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
