/**
 * Graph-context community reports from the deepest level up: a community's context can only be built
 * once its sub-communities have their reports, because an over-budget parent substitutes them. Each
 * community starts as soon as its own children are done, not when the whole level below is, so a few
 * slow calls hold up only their ancestors.
 * Each community with a non-empty context gets one structured-output call; a call that still fails
 * after the LLM layer's retries (or returns an unusable report) is recorded, not fatal here: the
 * caller applies max_failed_fraction. Results are collected level by level in community order, as
 * before; the LLM layer bounds concurrency (concurrent_requests) and rate.
 */
import { createHash } from 'node:crypto'
import { LlmError } from '../../../errors.js'
import type { ChatModel } from '../../../llm/types.js'
import type { CommunityRow } from '../../../model/communities.js'
import { buildLocalContexts, type ContextInput, type LocalContext } from './context.js'
import type { CountTokens } from './context-render.js'
import { renderFullContent, type CommunityReportDraft, type ReportContent } from './render.js'
import { requestReport, type ReportFailure, type ReportRunResult } from './request.js'
import {
  type CanonicalContext,
  canonicalContext,
  canonicalKey,
  decodeReport,
  encodeReport,
  type IdentityMaps,
  type StoredReport,
} from './stable-reuse.js'
import { anchorKey, anchorOf, type ReportAnchor, reportBasis, staleDecision } from './stale-reuse.js'
import { buildCommunityContext, type SubCommunity } from './substitution.js'

export interface GraphReportOptions {
  /** The prompt template with {input_text} and {max_report_length}. */
  prompt: string
  /** community_reports.max_length: word limit given to the model. */
  maxReportLength: number
  /** community_reports.max_input_length: token budget of one context. */
  maxInputLength: number
}

export interface GraphReportServices {
  chat: ChatModel
  signal?: AbortSignal
  /** Called once per community handled (report written, failed, or no context). */
  onCommunityDone?: () => void
  /**
   * Reports kept by canonical context (stable-reuse.ts): a community whose context differs from an
   * earlier one only by human_readable_ids gets that report renumbered instead of a model call.
   */
  stable?: {
    store: { get(key: string): Promise<string | undefined>; set(key: string, value: string): Promise<void> }
    maps: IdentityMaps
    /** In an update: keep a changed community's previous report when stale-reuse.ts allows it. */
    stale?: StaleReuse
  }
}

export interface StaleReuse {
  /** community_reports.update_max_context_change. */
  maxChange: number
  /** The previous generation's report of this community number, in stored form; undefined when none. */
  previous(community: number): StoredReport | undefined
  /** Keys of rows gone from the index or that lost a supporting text unit since the previous generation. */
  losing: ReadonlySet<string>
}

export async function generateGraphReports(
  input: ContextInput,
  options: GraphReportOptions,
  services: GraphReportServices,
): Promise<ReportRunResult> {
  const locals = buildLocalContexts(input)
  // One counting function for the run, so line token counts are memoised across communities.
  const countTokens = (text: string): number => services.chat.countTokens(text)
  const byCommunity = new Map(input.communities.map((c) => [c.community, c]))
  const levels = [...new Set(input.communities.map((c) => c.level))].sort((a, b) => b - a)
  const ordered = levels.flatMap((level) =>
    input.communities.filter((c) => c.level === level).sort((a, b) => a.community - b.community),
  )
  const reports = new Map<number, string>()
  const pending = new Map<number, Promise<Outcome>>()
  const deps = {
    ...services,
    countTokens,
    basis: reportBasis(options.prompt, options.maxReportLength, services.chat.model),
  }
  // Deepest first, so every child's promise exists before its parent's is made.
  for (const c of ordered) {
    const children = c.children.flatMap((id) => pending.get(id) ?? [])
    pending.set(
      c.community,
      Promise.all(children).then(async () => {
        const outcome = await reportOne(c, subCommunities(c, byCommunity, locals, reports), locals, options, deps)
        if (outcome.kind === 'report') reports.set(outcome.draft.community, renderFullContent(outcome.draft))
        return outcome
      }),
    )
  }
  const result: ReportRunResult = { drafts: [], failures: [], attempted: 0 }
  for (const outcome of await Promise.all(ordered.map((c) => pending.get(c.community)!))) {
    if (outcome.kind === 'report') {
      result.drafts.push(outcome.draft)
      if (outcome.reuse === 'renumbered') result.reused = (result.reused ?? 0) + 1
      if (outcome.reuse === 'stale') {
        result.keptStale = (result.keptStale ?? 0) + 1
        result.maxStaleChange = Math.max(result.maxStaleChange ?? 0, outcome.change ?? 0)
      }
    } else if (outcome.kind === 'failed') result.failures.push(outcome.failure)
    if (outcome.kind !== 'empty') result.attempted++
  }
  return result
}

function subCommunities(
  parent: CommunityRow,
  byCommunity: ReadonlyMap<number, CommunityRow>,
  locals: ReadonlyMap<number, LocalContext>,
  reports: ReadonlyMap<number, string>,
): SubCommunity[] {
  return parent.children.flatMap((id) => {
    const child = byCommunity.get(id)
    const local = locals.get(id)
    if (child === undefined || local === undefined) return []
    return [{ community: id, size: child.size, members: new Set(local.members.keys()), fullContent: reports.get(id) }]
  })
}

type Outcome =
  | { kind: 'report'; draft: CommunityReportDraft; reuse: 'none' | 'renumbered' | 'stale'; change?: number }
  | { kind: 'failed'; failure: ReportFailure }
  | { kind: 'empty' }

async function reportOne(
  community: CommunityRow,
  subs: SubCommunity[],
  locals: ReadonlyMap<number, LocalContext>,
  options: GraphReportOptions,
  services: GraphReportServices & { countTokens: CountTokens; basis: string },
): Promise<Outcome> {
  // Yield first: contexts are built one per macrotask, so requests go out while others are built.
  await new Promise<void>((resolve) => setImmediate(resolve))
  const local = locals.get(community.community)!
  const context = buildCommunityContext(local, subs, options.maxInputLength, services.countTokens)
  try {
    if (context.text === '') return { kind: 'empty' }
    const canonical = services.stable === undefined ? undefined : canonicalContext(context.text, services.stable.maps)
    const key =
      canonical === undefined
        ? undefined
        : canonicalKey(canonical.text, options.prompt, options.maxReportLength, services.chat.model)
    const origin = createHash('sha256').update(context.text).digest('hex')
    const earlier = key === undefined ? undefined : await keptReport(key, origin, services)
    const kept = earlier === SAME_CONTEXT ? undefined : earlier
    // A context whose text is unchanged is answered by its own cache entry, never kept stale.
    const stale =
      earlier !== undefined || canonical === undefined ? undefined : await staleReport(community, canonical, services)
    const content = kept ?? stale?.report ?? (await requestReport(context.text, options, services))
    if (key !== undefined && kept === undefined && stale === undefined) {
      const stored = encodeReport(content, services.stable!.maps, canonical!.shown)
      if (stored !== undefined) {
        await services.stable!.store.set(key, JSON.stringify({ ...stored, origin }))
        await services.stable!.store.set(anchorKey(stored), JSON.stringify(anchorOf(canonical!.rows, services.basis)))
      }
    }
    return {
      kind: 'report',
      draft: { community: community.community, level: community.level, ...content },
      reuse: kept !== undefined ? 'renumbered' : stale !== undefined ? 'stale' : 'none',
      change: stale?.change,
    }
  } catch (error) {
    if (!(error instanceof LlmError)) throw error
    return { kind: 'failed', failure: { community: community.community, reason: error.message, error } }
  } finally {
    services.onCommunityDone?.()
  }
}

const SAME_CONTEXT = Symbol('same context text')

/**
 * The earlier report of the same canonical context, renumbered; undefined when none or when a cited
 * row is gone; SAME_CONTEXT when it came from this very context text: then the model call (its cache
 * entry) gives the same reply, and a warm re-run keeps using, and recording, exactly the entries it
 * used before.
 */
async function keptReport(
  key: string,
  origin: string,
  services: GraphReportServices,
): Promise<ReportContent | typeof SAME_CONTEXT | undefined> {
  const stable = services.stable!
  const value = await stable.store.get(key)
  if (value === undefined) return undefined
  const { origin: from, ...stored } = JSON.parse(value) as StoredReport & { origin: string }
  if (from === origin) return SAME_CONTEXT
  const report = decodeReport(stored, stable.maps)
  // Read so the anchor travels on with the report into this generation's model_replies, for a later update.
  if (report !== undefined) await stable.store.get(anchorKey(stored))
  return report
}

/**
 * In an update: the community's previous report, renumbered, when its anchor (the rows it was written
 * from) allows keeping it under the bound; undefined when there is no previous report, no recorded
 * anchor (an index from before anchors, or from Microsoft GraphRAG), or the rules say regenerate.
 */
async function staleReport(
  community: CommunityRow,
  canonical: CanonicalContext,
  services: GraphReportServices & { basis: string },
): Promise<{ report: ReportContent; change: number } | undefined> {
  const stable = services.stable!
  const stale = stable.stale
  const stored = stale?.previous(community.community)
  if (stale === undefined || stored === undefined) return undefined
  const value = await stable.store.get(anchorKey(stored))
  if (value === undefined) return undefined
  const decision = staleDecision(
    JSON.parse(value) as ReportAnchor,
    anchorOf(canonical.rows, services.basis),
    stale.losing,
    stale.maxChange,
  )
  if (!decision.keep) return undefined
  const report = decodeReport(stored, stable.maps)
  return report === undefined ? undefined : { report, change: decision.change }
}
