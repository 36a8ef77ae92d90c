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
import { LlmError } from '../../../errors.js'
import type { ChatModel } from '../../../llm/types.js'
import { buildLocalContexts, type ContextCommunity, type ContextInput, type LocalContext } from './context.js'
import type { CountTokens } from './context-render.js'
import { renderFullContent, type CommunityReportDraft, type ReportContent } from './render.js'
import {
  countReuse,
  type ReportContext,
  reportWriter,
  type Reuse,
  type StableReports,
  type WrittenReport,
} from './report-reuse.js'
import type { ReportFailure, ReportRunResult } from './request.js'
import { buildCommunityContext, type SubCommunity } from './substitution.js'
import { reportBasis } from './stale-reuse.js'
import { fingerprintBasis, reportFingerprint, unchangedReport } from './unchanged-reports.js'

/** Fingerprints contexts and replays the recorded outcome of an unchanged one; undefined without a store. */
type UnchangedReader =
  | {
      fingerprint: (local: LocalContext, subs: readonly SubCommunity[]) => string
      replay: (fingerprint: string, community: ContextCommunity) => Promise<WrittenReport | undefined>
    }
  | undefined

function unchangedReader(options: GraphReportOptions, services: GraphReportServices): UnchangedReader {
  const stable = services.stable
  if (stable === undefined) return undefined
  const runBasis = fingerprintBasis(
    reportBasis(options.prompt, options.maxReportLength, services.chat.model),
    options.maxInputLength,
    stable.tokenizer ?? null,
  )
  return {
    fingerprint: (local, subs) => reportFingerprint(local, subs, stable.maps, runBasis),
    replay: (fingerprint, community) => unchangedReport(stable, fingerprint, community.community),
  }
}

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
   * earlier one only by human_readable_ids gets that report renumbered instead of a model call; in
   * an update, one whose context changed a little may keep its report (stale-reuse.ts).
   */
  stable?: StableReports
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
    write: reportWriter(options, services),
    unchanged: unchangedReader(options, services),
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
      countReuse(result, outcome)
    } else if (outcome.kind === 'failed') result.failures.push(outcome.failure)
    if (outcome.kind !== 'empty') result.attempted++
  }
  return result
}

function subCommunities(
  parent: ContextCommunity,
  byCommunity: ReadonlyMap<number, ContextCommunity>,
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
  | { kind: 'report'; draft: CommunityReportDraft; reuse: Reuse; change?: number; unchanged?: boolean }
  | { kind: 'failed'; failure: ReportFailure }
  | { kind: 'empty' }

async function reportOne(
  community: ContextCommunity,
  subs: SubCommunity[],
  locals: ReadonlyMap<number, LocalContext>,
  options: GraphReportOptions,
  services: GraphReportServices & {
    countTokens: CountTokens
    write: (community: number, context: ReportContext, fingerprint?: string) => Promise<WrittenReport>
    unchanged: UnchangedReader
  },
): Promise<Outcome> {
  // Yield first: contexts are built one per macrotask, so requests go out while others are built.
  await new Promise<void>((resolve) => setImmediate(resolve))
  const local = locals.get(community.community)!
  const draft = (content: ReportContent) => ({ community: community.community, level: community.level, ...content })
  try {
    const fingerprint = services.unchanged?.fingerprint(local, subs)
    const replayed = fingerprint === undefined ? undefined : await services.unchanged!.replay(fingerprint, community)
    if (replayed !== undefined) return { kind: 'report', draft: draft(replayed.content), ...replayed }
    const context = buildCommunityContext(local, subs, options.maxInputLength, services.countTokens)
    if (context.text === '') return { kind: 'empty' }
    const { content, reuse, change } = await services.write(community.community, context, fingerprint)
    return { kind: 'report', draft: draft(content), reuse, change }
  } catch (error) {
    if (!(error instanceof LlmError)) throw error
    return { kind: 'failed', failure: { community: community.community, reason: error.message, error } }
  } finally {
    services.onCommunityDone?.()
  }
}
