/**
 * confirm_with_model: candidate pairs are shown to a chat model in batches, which answers for each
 * whether both names denote one thing. Only confirmed pairs merge. A reply is validated (an object
 * with a `decisions` list); a pair it leaves out, or a batch whose call fails after its retries, is not
 * merged and is counted, so a doubtful answer never joins two entities.
 */
import { LlmError } from '../../../errors.js'
import { mapBounded } from '../../../storage/bounded-map.js'
import type { ChatModel } from '../../../llm/types.js'
import type { CandidatePair } from './candidates.js'

/** What the model is shown of one side of a pair. */
export interface PairSide {
  readonly title: string
  readonly type: string
  /** A short description, '' when none. */
  readonly description: string
}

export interface ConfirmOutcome {
  confirmed: CandidatePair[]
  rejected: number
  /** Pairs the reply left out or whose call failed. */
  unanswered: number
  failedCalls: number
}

const BATCH = 20
const DESCRIPTION_CHARS = 200

const CONFIRM_PROMPT = `You check an entity list built from documents for duplicates.
Each numbered line below holds two entity names, with their types and what the documents say of them.
For each line decide whether both names refer to the same real-world entity (a spelling variant, a typo,
an abbreviation, a longer or shorter form of one name) or to different entities that merely look alike
(different people, places, versions, numbers or years).
Answer with one JSON object: {"decisions": [{"pair": <line number>, "same": true or false}, ...]},
one decision for every line, and nothing else.`

function sideText(side: PairSide): string {
  const type = side.type === '' ? '' : ` [${side.type}]`
  const about = side.description.replace(/\s+/g, ' ').trim().slice(0, DESCRIPTION_CHARS)
  return `"${side.title}"${type}${about === '' ? '' : `: ${about}`}`
}

/** The user message of one batch: numbered entity pairs. */
export function pairsMessage(pairs: readonly CandidatePair[], side: (key: string) => PairSide): string {
  const lines = pairs.map((p, i) => `${i + 1}. ${sideText(side(p.a))}  |  ${sideText(side(p.b))}`)
  return `Entity pairs:\n${lines.join('\n')}`
}

/** The line numbers (1-based) the reply calls the same, and those it answered at all. */
export function readDecisions(json: unknown, count: number): { same: Set<number>; answered: Set<number> } {
  const same = new Set<number>()
  const answered = new Set<number>()
  const list = (json as { decisions?: unknown } | undefined)?.decisions
  if (!Array.isArray(list)) return { same, answered }
  for (const d of list) {
    if (typeof d !== 'object' || d === null) continue
    const { pair, same: verdict } = d as { pair?: unknown; same?: unknown }
    const n = typeof pair === 'string' ? Number(pair) : pair
    if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > count || typeof verdict !== 'boolean') continue
    answered.add(n)
    if (verdict) same.add(n)
  }
  return { same, answered }
}

export async function confirmPairs(
  pairs: readonly CandidatePair[],
  side: (key: string) => PairSide,
  options: { chat: ChatModel; concurrency: number; signal?: AbortSignal },
): Promise<ConfirmOutcome> {
  const batches: CandidatePair[][] = []
  for (let i = 0; i < pairs.length; i += BATCH) batches.push(pairs.slice(i, i + BATCH))
  const outcome: ConfirmOutcome = { confirmed: [], rejected: 0, unanswered: 0, failedCalls: 0 }
  const replies = await mapBounded(batches, options.concurrency, async (batch) => {
    try {
      const result = await options.chat.complete({
        messages: [
          { role: 'system', content: CONFIRM_PROMPT },
          { role: 'user', content: pairsMessage(batch, side) },
        ],
        responseFormat: { type: 'json_object', required: ['decisions'] },
        ...(options.signal ? { signal: options.signal } : {}),
      })
      return readDecisions(result.json, batch.length)
    } catch (error) {
      if (!(error instanceof LlmError)) throw error
      return undefined
    }
  })
  batches.forEach((batch, b) => {
    const reply = replies[b]
    if (reply === undefined) outcome.failedCalls++
    batch.forEach((p, i) => {
      if (reply === undefined || !reply.answered.has(i + 1)) outcome.unanswered++
      else if (reply.same.has(i + 1)) outcome.confirmed.push(p)
      else outcome.rejected++
    })
  })
  return outcome
}
