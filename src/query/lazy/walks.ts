/**
 * The relevance walks of all sub-questions under one budget: each sub-question's units ranked once,
 * its walk run under its share (in parallel), and the budget a walk ended by the stop rule left
 * unspent passed on to the walks the budget ended, which walk again. A unit judged once is never
 * asked again (verdicts are kept per sub-question), so a walk given more retraces its path for free
 * and pays only for new units. Every round waits for all its walks, so nothing depends on which
 * call finished first.
 */
import type { Settings } from '../../config/index.js'
import { topicalSentences } from '../../text/excerpt.js'
import type { SearchServices } from '../services.js'
import { passOnUnspent, RelevanceBudget, splitBudget } from './budget.js'
import { deepen, type Deepening } from './deepening.js'
import { judgeRelevance, type Passage, type SentencePassage, type StepContext } from './model-steps.js'
import type { LazyCommunity } from './ranking.js'
import { rankedUnitGroups, rankUnitsFor } from './unit-ranking.js'

/** What the walks need of the search. */
export interface WalkContext {
  settings: Settings['lazy_search']
  budget: number
  communities: readonly LazyCommunity[]
  services: SearchServices
  relevance: StepContext
  passage: (id: string) => Passage
}

/** One sub-question's search state, kept across budget rounds: its ranked units and every verdict so far. */
export interface SubquestionState {
  question: string
  unitRank: Map<string, number>
  /** Unit id → its sentences judged relevant, or null when judged not relevant. */
  verdicts: Map<string, string[] | null>
  /** Relevance calls made for it. */
  calls: number
}

export interface Walks {
  states: SubquestionState[]
  /** Each sub-question's last walk, in sub-question order. */
  walks: Deepening[]
  /** Each sub-question's final share of the budget. */
  shares: number[]
}

export async function walkAll(
  ctx: WalkContext,
  questions: readonly string[],
  fullText: { dbUri: string; table: string } | undefined,
): Promise<Walks> {
  // Ranked once for the whole budget: a walk given more budget later retraces the same path.
  const top = Math.max(ctx.settings.unit_top_k, ctx.budget)
  const states = await Promise.all(
    questions.map(async (question) => ({
      question,
      unitRank: await rankUnitsFor(question, top, ctx.services, fullText),
      verdicts: new Map<string, string[] | null>(),
      calls: 0,
    })),
  )
  const shares = splitBudget(ctx.budget, questions.length)
  const done = questions.map(() => false)
  const walks: Deepening[] = []
  for (let pending = questions.map((_, i) => i); pending.length > 0; ) {
    const ran = await Promise.all(pending.map((i) => walk(ctx, states[i]!, shares[i]!)))
    pending.forEach((i, k) => {
      walks[i] = ran[k]!
    })
    const ends = walks.map((w) => ({ spent: w.visits.reduce((n, v) => n + v.tested.length, 0), stop: w.stop }))
    pending = passOnUnspent(shares, ends, done)
  }
  return { states, walks, shares }
}

/** One sub-question's walk of the communities under `share` tests; a unit judged before is not asked again. */
async function walk(ctx: WalkContext, state: SubquestionState, share: number): Promise<Deepening> {
  const s = ctx.settings
  const communities =
    ctx.communities.length > 0 ? ctx.communities : rankedUnitGroups(state.unitRank, s.relevance_batch_size)
  const options = { batchSize: s.relevance_batch_size, maxMisses: s.max_misses }
  return deepen(communities, state.unitRank, new RelevanceBudget(share), options, async (ids) => {
    const fresh = ids.filter((id) => !state.verdicts.has(id))
    if (fresh.length > 0) {
      state.calls++
      const passages = fresh.map((id) => sentences(ctx, state.question, id))
      const found = await judgeRelevance(state.question, passages, ctx.relevance)
      for (const id of fresh) state.verdicts.set(id, found.get(id) ?? null)
    }
    return ids.filter((id) => state.verdicts.get(id) != null)
  })
}

/** A unit as a relevance test sees it: its sentences nearest the sub-question, up to relevance_excerpt_tokens. */
function sentences(ctx: WalkContext, question: string, id: string): SentencePassage {
  const p = ctx.passage(id)
  const tokens = ctx.settings.relevance_excerpt_tokens
  // One space between words: a sentence broken over lines reads the same, in fewer tokens.
  const picked = topicalSentences(p.text, question, tokens, ctx.services.countTokens)
  return { id, label: p.label, sentences: picked.map((x) => x.replace(/\s+/g, ' ')) }
}
