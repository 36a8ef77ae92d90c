/**
 * Claims of lazy search: read from the claim step's replies (each claim bound to the passages it came
 * from), then ranked and trimmed to the answer's context window. Order is by stable keys only
 * (score, sub-question, the rank of the claim's best source, text), never by reply arrival.
 */
import { toNumber } from '../search/json-reply.js'

export interface Claim {
  text: string
  /** Text unit ids the claim rests on (at least one). */
  sources: string[]
  /** 1-10: how much the claim bears on the sub-question. */
  score: number
  /** Index of the sub-question it answers. */
  subquery: number
}

/**
 * Claims of one reply `{"claims": [{"claim", "sources", "score"}]}`. `labels` maps the labels shown
 * to the model (human-readable ids) to unit ids; a source outside the batch is dropped, and a claim
 * left without a source is dropped. At most `limit` are kept, best score first.
 */
export function parseClaims(
  reply: Record<string, unknown> | undefined,
  labels: ReadonlyMap<string, string>,
  subquery: number,
  limit: number,
): Claim[] {
  const list = reply?.claims
  if (!Array.isArray(list)) return []
  const claims = list.flatMap((item: unknown): Claim[] => {
    const { claim, sources, score } = (item ?? {}) as { claim?: unknown; sources?: unknown; score?: unknown }
    if (typeof claim !== 'string' || claim.trim() === '' || !Array.isArray(sources)) return []
    const ids = [...new Set(sources.flatMap((s) => labels.get(String(s).trim()) ?? []))]
    const n = toNumber(score)
    if (ids.length === 0) return []
    return [{ text: claim.trim(), sources: ids, score: n === undefined ? 1 : Math.min(10, Math.max(0, n)), subquery }]
  })
  return claims.sort((a, b) => b.score - a.score).slice(0, limit)
}

/**
 * Claims best first: higher score, then earlier sub-question, then better-ranked best source
 * (`unitOrder`: position among the relevant units), then text. The same text stated twice becomes one
 * claim with both claims' sources and the better score.
 */
export function rankClaims(claims: readonly Claim[], unitOrder: ReadonlyMap<string, number>): Claim[] {
  const merged = new Map<string, Claim>()
  for (const c of claims) {
    const key = c.text.toLowerCase().replace(/\s+/g, ' ')
    const seen = merged.get(key)
    if (seen === undefined) merged.set(key, { ...c, sources: [...c.sources] })
    else {
      seen.sources = [...new Set([...seen.sources, ...c.sources])]
      seen.score = Math.max(seen.score, c.score)
      seen.subquery = Math.min(seen.subquery, c.subquery)
    }
  }
  const position = (id: string) => unitOrder.get(id) ?? Number.MAX_SAFE_INTEGER
  const best = (c: Claim) => Math.min(...c.sources.map(position))
  // Sources in unit order, so a merged claim reads the same whichever of its copies came first.
  for (const c of merged.values()) c.sources.sort((a, b) => position(a) - position(b) || (a < b ? -1 : a > b ? 1 : 0))
  return [...merged.values()].sort(
    (a, b) =>
      b.score - a.score ||
      a.subquery - b.subquery ||
      best(a) - best(b) ||
      (a.text < b.text ? -1 : a.text > b.text ? 1 : 0),
  )
}

/**
 * About what one relevant unit's claims take in the answer's context (claims_per_unit lines of ~35
 * tokens): the claim step reads no more units than the context can hold the claims of.
 */
export const CLAIM_TOKENS_PER_UNIT = 100

/**
 * The relevant units the claim step reads: at most `cap`, taken in turn from each sub-question's list
 * (its first, then each one's second, …), so every sub-question is heard and a short list leaves its
 * share to the others.
 */
export function claimUnits(relevant: ReadonlyArray<readonly string[]>, cap: number): string[][] {
  const out = relevant.map((): string[] => [])
  let taken = 0
  for (let i = 0; taken < cap; i++) {
    let more = false
    relevant.forEach((ids, q) => {
      if (i >= ids.length || taken >= cap) return
      out[q]!.push(ids[i]!)
      taken++
      more = true
    })
    if (!more) break
  }
  return out
}

/**
 * The order the search lists the passages its claims rest on (`context.sources`): the units relevant
 * to the first sub-question (the one nearest the question asked) by their retrieval rank for it
 * (`rankings[q]`: unit id → rank, 0 = best), then the next sub-question's units not listed yet, and
 * so on. The claims themselves stay ordered by the model's score (rankClaims): a score says how much
 * a statement matters, and sorting passages by it let a claim's wording, not the passage's
 * retrieval, decide which passage came first.
 */
export function sourceOrder(
  rankings: ReadonlyArray<ReadonlyMap<string, number>>,
  relevant: ReadonlyArray<readonly string[]>,
): Map<string, number> {
  const order = new Map<string, number>()
  relevant.forEach((ids, q) => {
    const rank = (id: string) => rankings[q]?.get(id) ?? Number.MAX_SAFE_INTEGER
    const ranked = [...ids].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0))
    for (const id of ranked) if (!order.has(id)) order.set(id, order.size)
  })
  return order
}

/** One claim as the answer reads it, citing its sources' labels. */
function claimLine(claim: Claim, label: (unitId: string) => string): string {
  return `- ${claim.text} [Data: Sources (${claim.sources.map(label).join(', ')})]`
}

/** The ranked claims that fit `maxTokens`, best first; a claim too long is skipped, not the end of the list. */
export function trimClaims(
  ranked: readonly Claim[],
  maxTokens: number,
  label: (unitId: string) => string,
  countTokens: (text: string) => number,
): { kept: Claim[]; text: string; dropped: number } {
  const kept: Claim[] = []
  const lines: string[] = []
  let used = 0
  for (const claim of ranked) {
    const line = claimLine(claim, label)
    const cost = countTokens(`${line}\n`)
    if (used + cost > maxTokens) continue
    kept.push(claim)
    lines.push(line)
    used += cost
  }
  return { kept, text: lines.join('\n'), dropped: ranked.length - kept.length }
}
